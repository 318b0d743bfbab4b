#pragma once
// halide-arena's generator main as a function: the `arena` target feature
// and the harena.* options taken out of the command line, the rest handed
// to a generator main that builds the generators one source provides
// (generator_attach.h's run_generator_main for C++ generators, the Python
// binding's for Python ones), and an `arena` build that ran no plan refused.
#include <functional>

namespace harena {

using GeneratorRunner = std::function<int(int argc, char **argv)>;

// Returns the exit code; reports errors on stderr, and never ends the process.
int arena_generator_main(int argc, char **argv, const GeneratorRunner &run_generators);

}  // namespace harena
