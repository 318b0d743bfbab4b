# Installs what a user's own CMake project needs:
#   find_package(HalideArena REQUIRED)
#   add_halide_arena_generator(my_gen SOURCES my_gen.cpp)
#   add_halide_library(my_pipeline FROM my_gen FEATURES cuda arena)
#   target_link_libraries(app PRIVATE my_pipeline HalideArena::runtime)
# HalideArena::runtime links every feature of the runtime; HalideArena::core
# and the features' own libraries (HalideArena::checking, growth, companion,
# streams, graph) link only what a program names. HalideArena::rmm is
# installed where the RMM component was built, and finds RMM itself.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HARENA_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/HalideArena")

set_target_properties(harena_generator_main PROPERTIES EXPORT_NAME generator_main)
set_target_properties(harena_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(harena_core PROPERTIES EXPORT_NAME core)
set(harena_runtime_features harena_checking harena_growth harena_companion harena_streams harena_graph)
foreach (feature IN LISTS harena_runtime_features)
  string(REPLACE "harena_" "" name ${feature})
  set_target_properties(${feature} PROPERTIES EXPORT_NAME ${name})
endforeach ()
set_target_properties(harena_device_override PROPERTIES EXPORT_NAME device_override)
set_target_properties(harena_cuda_launch PROPERTIES EXPORT_NAME cuda_launch)
set_target_properties(harena_pass PROPERTIES EXPORT_NAME pass)
set_target_properties(harena_solver PROPERTIES EXPORT_NAME solver)

install(TARGETS harena_generator_main harena_pass harena_solver harena_runtime harena_core ${harena_runtime_features}
                harena_device_override harena_cuda_launch
        EXPORT HalideArenaTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        OBJECTS DESTINATION ${CMAKE_INSTALL_LIBDIR}/halide-arena
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY runtime/include/harena planner/pass/include/harena
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT HalideArenaTargets NAMESPACE HalideArena:: DESTINATION ${HARENA_CMAKE_DIR})
if (TARGET harena_rmm)
  set_target_properties(harena_rmm PROPERTIES EXPORT_NAME rmm)
  install(TARGETS harena_rmm
          EXPORT HalideArenaRmmTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY runtime/rmm/include/harena DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT HalideArenaRmmTargets NAMESPACE HalideArena:: DESTINATION ${HARENA_CMAKE_DIR})
endif ()

configure_package_config_file(cmake/HalideArenaConfig.cmake.in
                              "${CMAKE_CURRENT_BINARY_DIR}/HalideArenaConfig.cmake"
                              INSTALL_DESTINATION ${HARENA_CMAKE_DIR})
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/HalideArenaConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/HalideArenaConfig.cmake"
              "${CMAKE_CURRENT_BINARY_DIR}/HalideArenaConfigVersion.cmake"
              cmake/HalideArenaHelpers.cmake
              cmake/harena-genrt.sh.in
        DESTINATION ${HARENA_CMAKE_DIR})
