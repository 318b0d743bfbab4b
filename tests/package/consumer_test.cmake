# Installs the build into a fresh prefix, then configures, builds and runs
# the consumer project against it, as a user's project would, with the Halide
# release the build used.
# The interpreter the build's Halide package found (Halide 21's looks for
# Python; empty for 14), passed on as a user would to skip FindPython's
# search.
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
foreach (step
    "${CMAKE_COMMAND};--install;${BUILD_DIR};--prefix;${prefix}"
    "${CMAKE_COMMAND};-S;${SOURCE_DIR};-B;${WORK_DIR}/build;-DCMAKE_PREFIX_PATH=${prefix};-DHalide_DIR=${HALIDE_DIR};-DPython_EXECUTABLE=${PYTHON_EXECUTABLE};-DCMAKE_BUILD_TYPE=Release"
    "${CMAKE_COMMAND};--build;${WORK_DIR}/build"
    "${WORK_DIR}/build/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if (NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}): ${step}")
  endif ()
endforeach ()
