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
  # In halide-arena's own tree, Halide.h is parsed once for all generators.
  if (TARGET harena_halide_pch)
    target_precompile_headers(${TARGET} REUSE_FROM harena_halide_pch)
  endif ()
endfunction()

# From Halide 15, add_halide_library builds the shared runtime with Halide's
# own gengen (Halide::GenRT) rather than the generator, and gengen rejects the
# `arena` token that FEATURES arena puts in the runtime's targets. Halide::GenRT
# is pointed at a script that drops the token and runs gengen.
function(_harena_wrap_genrt)
  get_property(wrapped GLOBAL PROPERTY HARENA_GENRT_WRAPPED)
  if (NOT TARGET Halide::GenRT OR wrapped)
    return()
  endif ()
  get_target_property(harena_real_genrt Halide::GenRT LOCATION)
  set(script "${CMAKE_BINARY_DIR}/harena-genrt/gengen")
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/harena-genrt.sh.in" "${script}" @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  get_target_property(configs Halide::GenRT IMPORTED_CONFIGURATIONS)
  set_target_properties(Halide::GenRT PROPERTIES IMPORTED_LOCATION "${script}")
  foreach (config IN LISTS configs)
    set_target_properties(Halide::GenRT PROPERTIES IMPORTED_LOCATION_${config} "${script}")
  endforeach ()
  set_property(GLOBAL PROPERTY HARENA_GENRT_WRAPPED TRUE)
endfunction()
_harena_wrap_genrt()
