#include "generator_attach.h"

namespace harena {
namespace {

int passes_run = 0;

// Counts the runs of the pass it owns, so that the generator main can tell a
// planned build from one whose hook never took effect.
class CountedPass : public Halide::Internal::IRMutator {
public:
    explicit CountedPass(PassOptions options)
        : pass_(std::move(options)) {
    }
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override {
        passes_run++;
        return pass_.mutate(s);
    }

private:
    ArenaPlannerPass pass_;
};

}  // namespace

GeneratorConfig &generator_config() {
    static GeneratorConfig c;
    return c;
}

int arena_passes_run() {
    return passes_run;
}

void attach_arena(Halide::Pipeline pipeline, const Halide::Target &target,
                  const std::vector<NamedArgument> &arguments) {
    const GeneratorConfig &c = generator_config();
    // Maxima are checked against the generator's arguments in every build,
    // so that a misspelt name is reported, and required only where they
    // bound a plan.
    if (!c.maxima.empty()) {
        for (MaximumRequirement &r : requirements_for(c.maxima, arguments)) {
            if (c.arena) {
                pipeline.add_requirement(r.condition, r.message);
            }
        }
    }
    if (c.arena) {
        PassOptions options = c.options;
        options.device_target = target.has_gpu_feature();
        options.maximum_buffer_size = static_cast<uint64_t>(target.maximum_buffer_size());
        pipeline.add_custom_lowering_pass(new CountedPass(options));
    }
}

}  // namespace harena
