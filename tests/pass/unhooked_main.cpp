// Halide's generator main with no hook: what an `arena` build gets when the
// hook that attaches the pass does not take effect (a generator whose calls
// escape the link-time wrapper of GeneratorBase::post_schedule, a release
// whose provider is bypassed).
#include "generator/generator_attach.h"

#include <iostream>

int harena::run_generator_main(int argc, char **argv) {
#ifdef HALIDE_VERSION_MAJOR
    return Halide::Internal::generate_filter_main(argc, argv);
#else
    return Halide::Internal::generate_filter_main(argc, argv, std::cerr);
#endif
}
