# Installs the build into a fresh prefix, then configures, builds and runs a
# project against it, as a user's project would, with the Halide release the
# build used: the consumer project, or a starter copied out of apps/starters.
#   -DBUILD_DIR -DHALIDE_DIR -DPYTHON_EXECUTABLE -DSOURCE_DIR -DWORK_DIR
#   -DPREFIX_PATH (more CMAKE_PREFIX_PATH entries) -DRUN (the command to run,
#   a list, in the project's build folder)
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${WORK_DIR}/source")
file(MAKE_DIRECTORY "${WORK_DIR}/build")
foreach (step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${prefix}"
    "${CMAKE_COMMAND};-S;${WORK_DIR}/source;-B;${WORK_DIR}/build;-DCMAKE_PREFIX_PATH=${prefix}\\;${PREFIX_PATH};-DHalide_DIR=${HALIDE_DIR};-DPython_EXECUTABLE=${PYTHON_EXECUTABLE};-DCMAKE_BUILD_TYPE=Release"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/build"
    "${RUN}")
  if (step STREQUAL "")
    continue()
  endif ()
  execute_process(COMMAND ${step} WORKING_DIRECTORY "${WORK_DIR}/build" RESULT_VARIABLE rc)
  if (NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif ()
endforeach ()
