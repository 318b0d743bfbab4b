# Installs the build into a fresh prefix, then configures, builds and runs a
# project against it, as a user's project would, with the Halide release the
# build used: the consumer project, or a starter copied out of apps/starters.
#   -DBUILD_DIR -DHALIDE_DIR -DPYTHON_EXECUTABLE -DSOURCE_DIR -DWORK_DIR
#   -DPREFIX_PATH (more CMAKE_PREFIX_PATH entries) -DRUN (the command to run,
#   a list, in the project's build folder; paths relative to it)
#   -DCOMPARE (optional: a file RUN writes in the build folder): the project
#   is built a second time without the plan (its CMakeLists.txt with
#   "FEATURES arena PARAMS harena.argument=arena" left out of every library),
#   RUN runs there too, and the two files must be identical.
set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")

function(run_step)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${step_dir}" RESULT_VARIABLE rc)
  if (NOT rc EQUAL 0)
    message(FATAL_ERROR "step failed (${rc}) in ${step_dir}: ${ARGN}")
  endif ()
endfunction()

# Copies the project into ROOT/source, builds it in ROOT/build and runs RUN there.
function(build_and_run root)
  file(MAKE_DIRECTORY "${root}/build")
  set(step_dir "${root}/build")
  run_step(${CMAKE_COMMAND} -S ${root}/source -B ${root}/build "-DCMAKE_PREFIX_PATH=${prefix}\;${PREFIX_PATH}"
           -DHalide_DIR=${HALIDE_DIR} -DPython_EXECUTABLE=${PYTHON_EXECUTABLE} -DCMAKE_BUILD_TYPE=Release)
  run_step(${CMAKE_COMMAND} --build ${root}/build)
  if (NOT RUN STREQUAL "")
    run_step(${RUN})
  endif ()
endfunction()

set(step_dir "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
run_step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
file(COPY "${SOURCE_DIR}/" DESTINATION "${WORK_DIR}/source")
build_and_run("${WORK_DIR}")

if (COMPARE)
  set(unplanned "${WORK_DIR}/unplanned")
  file(COPY "${SOURCE_DIR}/" DESTINATION "${unplanned}/source")
  file(READ "${unplanned}/source/CMakeLists.txt" project)
  string(REPLACE "FEATURES arena PARAMS harena.argument=arena" "" unplanned_project "${project}")
  if (unplanned_project STREQUAL project)
    message(FATAL_ERROR "${SOURCE_DIR}/CMakeLists.txt has no \"FEATURES arena PARAMS harena.argument=arena\" to "
                        "leave out for the unplanned build")
  endif ()
  file(WRITE "${unplanned}/source/CMakeLists.txt" "${unplanned_project}")
  build_and_run("${unplanned}")
  set(step_dir "${WORK_DIR}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK_DIR}/build/${COMPARE}"
                          "${unplanned}/build/${COMPARE}" RESULT_VARIABLE different)
  if (NOT different EQUAL 0)
    message(FATAL_ERROR "${COMPARE} of the planned build differs from the unplanned build's")
  endif ()
  message(STATUS "${COMPARE}: identical to the unplanned build's")
endif ()
