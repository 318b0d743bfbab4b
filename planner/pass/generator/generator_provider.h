#pragma once
// Halide 15 and later: the generator main over the generators any provider
// creates (the Python binding's provider creates Python generators), each
// with the pass attached as run_generator_main attaches it.
#include "halide_compat.h"

namespace harena {

int run_generator_main(int argc, char **argv, const Halide::Internal::GeneratorFactoryProvider &generators);

}  // namespace harena
