# The fuzz targets, listed once for the two builds that include this file:
# the corpus replays of the test suite (CMakeLists.txt here) and the
# libFuzzer binaries (libfuzzer/CMakeLists.txt), each of which defines
# harena_fuzz_target(<name> SOURCES <files in tests/fuzz> LIBRARIES <libs>).
# <name> is also the folder of the target's seed corpus under corpus/.
harena_fuzz_target(csv_reader SOURCES csv_fuzz.cpp LIBRARIES harena_solver)
harena_fuzz_target(solver SOURCES solver_fuzz.cpp LIBRARIES harena_solver)
harena_fuzz_target(runtime_calls
                   SOURCES runtime_fuzz.cpp runtime_calls.cpp runtime_scope_calls.cpp runtime_model.cpp
                   LIBRARIES harena_runtime)
