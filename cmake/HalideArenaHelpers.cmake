# add_halide_arena_generator(<target> SOURCES <src>... [LINK_LIBRARIES <lib>...])
#
# Like Halide's add_halide_generator, but the executable uses halide-arena's
# generator main, which accepts the `arena` target feature. The result is used
# with Halide's own add_halide_library, unchanged:
#   add_halide_arena_generator(my_gen SOURCES my_gen.cpp)
#   add_halide_library(my_pipeline FROM my_gen FEATURES cuda arena)
# Without `arena` in the features the same generator builds exactly as before.
function(add_halide_arena_generator TARGET)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK_LIBRARIES" ${ARGN})
  add_executable(${TARGET} ${ARG_SOURCES})
  target_link_libraries(${TARGET} PRIVATE HalideArena::generator_main ${ARG_LINK_LIBRARIES})
endfunction()
