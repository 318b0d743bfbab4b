// The hook for Halide 14, which has no way to wrap the generators that
// generate_filter_main builds: GeneratorBase::post_schedule() runs between
// schedule() and lowering and is defined out of line in libHalide; this
// definition, linked into the generator executable, takes its place through
// the dynamic linker's symbol interposition and does its work (tracking
// parameter values) before attaching the pass. A libHalide that binds its own
// definition (-Bsymbolic, LTO, static linking) never calls this one; the
// generator main then finds that no pass ran and fails the build.
#include "generator_attach.h"

#include <iostream>

static_assert(harena::halide_major == 14, "the post_schedule hook is for Halide 14; later releases use "
                                          "generator_attach_provider.cpp");

namespace Halide {
namespace Internal {
void GeneratorBase::post_schedule() {
    track_parameter_values(true);
    std::vector<harena::NamedArgument> arguments;
    for (GeneratorInputBase *input : param_info().inputs()) {
        if (input->kind() != IOKind::Function) {
            for (const Parameter &p : input->parameters_) {
                arguments.push_back({p.name(), p});
            }
        }
    }
    for (GeneratorOutputBase *output : param_info().outputs()) {
        if (output->kind() == IOKind::Buffer) {
            for (const Func &f : output->funcs()) {
                for (const OutputImageParam &b : f.output_buffers()) {
                    arguments.push_back({b.name(), b.parameter()});
                }
            }
        }
    }
    harena::attach_arena(get_pipeline(), get_target(), arguments);
}
}  // namespace Internal
}  // namespace Halide

int harena::run_generator_main(int argc, char **argv) {
    return Halide::Internal::generate_filter_main(argc, argv, std::cerr);
}
