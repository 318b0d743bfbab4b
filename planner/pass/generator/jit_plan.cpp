#include "harena/jit.h"

#include "generator/lowering_pass.h"

namespace harena {

ArgumentPlan plan_into_argument(Halide::Pipeline &pipeline, const Halide::ImageParam &arena,
                                const Halide::Target &target, const JitPlanOptions &options) {
    if (arena.type() != Halide::UInt(8) || arena.dimensions() != 1) {
        throw Halide::CompileError("harena::plan_into_argument: the arena '" + arena.name() +
                                   "' must be an ImageParam of UInt(8) and one dimension\n");
    }
    PassOptions pass;
    pass.parallel_slots = options.parallel_slots;
    pass.pipeline_name = options.pipeline_name.empty() ? pipeline.outputs().front().name() : options.pipeline_name;
    pass.report_dir = options.report_dir;
    pass.trace = options.trace;
    pass.device_target = target.has_gpu_feature();
    pass.maximum_buffer_size = static_cast<uint64_t>(target.maximum_buffer_size());
    pass.arena_argument = arena.name();
    // JIT takes as arguments the parameters its definitions and requirements
    // use; this requirement makes the unread arena one of them.
    pipeline.add_requirement(arena.dim(0).extent() >= 1, "arena argument '" + arena.name() + "' of " +
                                                             pass.pipeline_name + " is empty");
    auto state = std::make_shared<LoweringPassState>();
    pipeline.add_custom_lowering_pass(new ArenaLoweringPass(pass, state));
    std::vector<Halide::Argument> arguments = pipeline.infer_arguments();
    const PassReport report = probe_plan(pipeline, *state, arguments, target, pass.pipeline_name);
    ArgumentPlan plan;
    plan.bytes_at_estimates = report.arena_bytes;
    plan.buffers = static_cast<int>(report.buffers.size());
    plan.buffers_planned = report.planned_count();
    plan.slot_pools = static_cast<int>(report.slot_pools.size());
    for (const BufferDecision &b : report.buffers) {
        if (!b.planned) {
            plan.unplanned += b.name + ": " + b.reason + "\n";
        }
    }
    return plan;
}

}  // namespace harena
