// The executable's entry: the generator main over the C++ generators linked
// into it.
#include "generator/arena_main.h"
#include "generator/generator_attach.h"

int main(int argc, char **argv) {
    return harena::arena_generator_main(argc, argv, [](int n, char **args) { return harena::run_generator_main(n, args); });
}
