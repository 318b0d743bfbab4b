#include "generator_attach.h"

#include <algorithm>
#include <climits>

namespace harena {
namespace {

int passes_run = 0;

// Set while a probe lowering runs (probe_arena_bytes): the pass then plans
// quietly, stores the arena's bytes here and ends the lowering.
uint64_t *probed_bytes = nullptr;
struct ProbeDone {};

// Counts the runs of the pass it owns, so that the generator main can tell a
// planned build from one whose hook never took effect.
class CountedPass : public Halide::Internal::IRMutator {
public:
    explicit CountedPass(PassOptions options)
        : options_(std::move(options)) {
    }
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override {
        if (probed_bytes != nullptr) {
            PassOptions quiet = options_;
            quiet.trace = 0;
            quiet.report_dir.clear();
            PassReport report;
            plan_arena(s, quiet, &report);
            *probed_bytes = report.arena_bytes;
            throw ProbeDone{};
        }
        passes_run++;
        return plan_arena(s, options_);
    }

private:
    PassOptions options_;
};

// The buffer input named by harena.argument; a user error naming what
// exists where there is no such uint8 input of one dimension.
Parameter arena_parameter(const Halide::Pipeline &pipeline, const std::vector<NamedArgument> &arguments,
                          const std::string &name) {
    std::string inputs;
    for (const NamedArgument &a : arguments) {
        bool output = false;
        for (const Halide::Func &f : pipeline.outputs()) {
            output |= f.name() == a.name;
        }
        if (output || !a.param.is_buffer()) {
            continue;
        }
        if (a.name == name && a.param.type() == Halide::UInt(8) && a.param.dimensions() == 1) {
            return a.param;
        }
        inputs += (inputs.empty() ? "" : ", ") + a.name;
    }
    throw Halide::CompileError("harena.argument=" + name + ": the generator has no uint8 buffer input '" + name +
                               "' of one dimension (buffer inputs: " + (inputs.empty() ? "none" : inputs) +
                               "); declare Input<Buffer<uint8_t, 1>> " + name + "{\"" + name +
                               "\"} and leave it unused: its memory is the arena\n");
}

// The arena's bytes at the arguments' estimates: the pipeline lowered once
// up to the pass, which plans it and ends the lowering there.
uint64_t probe_arena_bytes(Halide::Pipeline pipeline, const Parameter &arena, const Halide::Target &target,
                           const std::string &function_name) {
    std::vector<Halide::Argument> args = pipeline.infer_arguments();
    args.emplace_back(arena.name(), Halide::Argument::InputBuffer, arena.type(), arena.dimensions(),
                      Halide::ArgumentEstimates{});
    uint64_t bytes = 0;
    probed_bytes = &bytes;
    try {
        pipeline.compile_to_module(args, function_name, target);
    } catch (const ProbeDone &) {
    } catch (...) {
        probed_bytes = nullptr;
        throw;
    }
    probed_bytes = nullptr;
    return bytes;
}

// The arena argument's estimate is the plan's bytes, so that callers that
// allocate every input from its estimate (RunGen's --estimate_all) pass an
// arena that holds a call at the estimates.
void estimate_arena_argument(Halide::Pipeline pipeline, const std::vector<NamedArgument> &arguments,
                             const Halide::Target &target, const PassOptions &options) {
    Parameter arena = arena_parameter(pipeline, arguments, options.arena_argument);
    const uint64_t bytes = probe_arena_bytes(pipeline, arena, target, options.pipeline_name);
    if (bytes > uint64_t(INT32_MAX)) {
        throw Halide::CompileError("harena.argument=" + options.arena_argument + ": the plan of " +
                                   options.pipeline_name + " needs " + std::to_string(bytes) +
                                   " bytes, more than one buffer dimension can hold; use the user_context "
                                   "convention (leave out harena.argument)\n");
    }
    arena.set_min_constraint_estimate(0, 0);
    arena.set_extent_constraint_estimate(0, Halide::Expr(static_cast<int32_t>(std::max<uint64_t>(bytes, 1))));
}

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
        if (!options.arena_argument.empty()) {
            estimate_arena_argument(pipeline, arguments, target, options);
        }
    }
}

}  // namespace harena
