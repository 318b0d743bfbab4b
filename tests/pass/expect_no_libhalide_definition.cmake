# Expects GENERATOR to define no function that LIBHALIDE exports: a definition
# of its own would take the place of libHalide's only where the dynamic linker
# lets it (not with a libHalide linked -Bsymbolic, with LTO or statically), so
# the pass must attach without one.
execute_process(COMMAND "${NM}" -D --defined-only "${LIBHALIDE}" OUTPUT_VARIABLE lib RESULT_VARIABLE lib_result)
execute_process(COMMAND "${NM}" --defined-only "${GENERATOR}" OUTPUT_VARIABLE gen RESULT_VARIABLE gen_result)
# Both listings must hold what they are known to: libHalide its functions,
# the generator its main (a stripped or unreadable file would pass vacuously).
if (NOT lib_result EQUAL 0 OR NOT gen_result EQUAL 0 OR NOT lib MATCHES " T _ZN6Halide" OR NOT gen MATCHES " T main\n")
  message(FATAL_ERROR "could not list the symbols of ${LIBHALIDE} and ${GENERATOR}")
endif ()
string(REGEX MATCHALL " T _ZN6Halide[^\n]*" lib_functions "${lib}")
string(REGEX MATCHALL " T _ZN6Halide[^\n]*" gen_functions "${gen}")
list(LENGTH gen_functions checked)
set(redefined "")
foreach (f IN LISTS gen_functions)
  list(FIND lib_functions "${f}" at)
  if (at GREATER -1)
    string(REPLACE " T " "" name "${f}")
    list(APPEND redefined "${name}")
  endif ()
endforeach ()
if (redefined)
  message(FATAL_ERROR "${GENERATOR} defines functions libHalide defines: ${redefined}")
endif ()
message(STATUS "none of the ${checked} Halide functions ${GENERATOR} defines is one of libHalide's")
