#include "generator/generator_attach.h"

#include <algorithm>
#include <climits>

namespace harena {
namespace {

// The pass of every pipeline this generator main builds.
std::shared_ptr<LoweringPassState> pass_state = std::make_shared<LoweringPassState>();

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

// The arena argument's estimate is the plan's bytes, so that callers that
// allocate every input from its estimate (RunGen's --estimate_all) pass an
// arena that holds a call at the estimates.
void estimate_arena_argument(Halide::Pipeline pipeline, const std::vector<NamedArgument> &arguments,
                             const Halide::Target &target, const PassOptions &options) {
    Parameter arena = arena_parameter(pipeline, arguments, options.arena_argument);
    std::vector<Halide::Argument> args = pipeline.infer_arguments();
    args.emplace_back(arena.name(), Halide::Argument::InputBuffer, arena.type(), arena.dimensions(),
                      Halide::ArgumentEstimates{});
    const uint64_t bytes = probe_plan(pipeline, *pass_state, args, target, options.pipeline_name).arena_bytes;
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
    return pass_state->runs;
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
        pipeline.add_custom_lowering_pass(new ArenaLoweringPass(options, pass_state));
        if (!options.arena_argument.empty()) {
            estimate_arena_argument(pipeline, arguments, target, options);
        }
    }
}

}  // namespace harena
