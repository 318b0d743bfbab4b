# Sets HARENA_FUZZ_CLANG (and HARENA_FUZZ_CLANG_C) when a clang that links
# libFuzzer with ASan and UBSan is installed. Debian: clang-14 and
# libclang-rt-14-dev (a recommendation of clang-14 that
# --no-install-recommends leaves out; it holds libclang_rt.fuzzer).
unset(HARENA_FUZZ_CLANG)
if (NOT HARENA_FUZZERS STREQUAL "OFF")
  find_program(HARENA_FUZZ_CLANG_PATH NAMES clang++-14 clang++)
  find_program(HARENA_FUZZ_CLANG_C_PATH NAMES clang-14 clang)
  if (HARENA_FUZZ_CLANG_PATH AND HARENA_FUZZ_CLANG_C_PATH AND NOT DEFINED HARENA_FUZZ_CLANG_WORKS)
    set(probe_dir "${CMAKE_CURRENT_BINARY_DIR}/libfuzzer-probe")
    file(WRITE "${probe_dir}/probe.cpp"
         "#include <cstddef>\n#include <cstdint>\n"
         "extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t *, size_t) { return 0; }\n")
    execute_process(COMMAND "${HARENA_FUZZ_CLANG_PATH}" -fsanitize=fuzzer,address,undefined
                            "${probe_dir}/probe.cpp" -o "${probe_dir}/probe"
                    RESULT_VARIABLE probe_result OUTPUT_QUIET ERROR_QUIET)
    if (probe_result EQUAL 0)
      set(HARENA_FUZZ_CLANG_WORKS ON CACHE INTERNAL "clang links libFuzzer")
    else ()
      set(HARENA_FUZZ_CLANG_WORKS OFF CACHE INTERNAL "clang links libFuzzer")
    endif ()
  endif ()
  if (HARENA_FUZZ_CLANG_WORKS)
    set(HARENA_FUZZ_CLANG "${HARENA_FUZZ_CLANG_PATH}")
    set(HARENA_FUZZ_CLANG_C "${HARENA_FUZZ_CLANG_C_PATH}")
    message(STATUS "halide-arena: libFuzzer targets with ${HARENA_FUZZ_CLANG}")
  elseif (HARENA_FUZZERS STREQUAL "ON")
    message(FATAL_ERROR "HARENA_FUZZERS=ON, but no clang++ links -fsanitize=fuzzer "
                        "(Debian: apt-get install clang-14 libclang-rt-14-dev)")
  else ()
    message(STATUS "halide-arena: no clang with libFuzzer; only the fuzz corpus replays are built")
  endif ()
endif ()
