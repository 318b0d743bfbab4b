// Halide's default error handler aborts the program. The tests check return
// codes and messages instead, so in their binaries an error is printed to
// stderr and the failing call returns.
#include <cstdio>

#include "HalideRuntime.h"

namespace {

void print_error(void *, const char *message) {
    std::fprintf(stderr, "Error: %s\n", message);
}

const bool installed = (halide_set_error_handler(print_error), true);

}  // namespace
