#include "generator_entry.h"

#include "generator/arena_main.h"
#include "generator/generator_provider.h"
#include "python_generators.h"

namespace harena::python {

int generator_main(const std::vector<std::string> &argv) {
    std::vector<std::string> args = argv;
    std::vector<char *> cargs;
    for (std::string &a : args) {
        cargs.push_back(a.data());
    }
    cargs.push_back(nullptr);
    return arena_generator_main(static_cast<int>(args.size()), cargs.data(), [](int n, char **v) {
        PythonGenerators generators;
        return run_generator_main(n, v, generators);
    });
}

}  // namespace harena::python
