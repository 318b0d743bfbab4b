# Runs GENERATOR for an `arena` target and expects the generator main to refuse
# the unplanned result: a non-zero exit, the message, and no library left in OUT.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${GENERATOR}" -g chain -n chain_unplanned -o "${OUT}" -e static_library,c_header target=host-arena
                RESULT_VARIABLE result ERROR_VARIABLE err OUTPUT_VARIABLE out)
file(GLOB left "${OUT}/chain_unplanned.*")
if (result EQUAL 0)
  message(FATAL_ERROR "the generator succeeded although the pass never ran:\n${out}${err}")
elseif (NOT err MATCHES "arena planner pass never ran")
  message(FATAL_ERROR "the generator failed (${result}) without saying the pass never ran:\n${err}")
elseif (left)
  message(FATAL_ERROR "the refused build left files behind: ${left}")
endif ()
message(STATUS "refused as expected: ${err}")
