#pragma once
// halide-arena's generator main for the Python generators of this process:
// what halide.main() does, with the `arena` target feature and the harena.*
// options of the C++ generator main (planner/pass/generator/generator_main.cpp).
#include <string>
#include <vector>

namespace harena::python {

// argv as sys.argv gives it (argv[0] the program); returns the exit code.
int generator_main(const std::vector<std::string> &argv);

}  // namespace harena::python
