#pragma once
// Planning a pipeline that is compiled in the process (Pipeline::realize,
// compile_jit, and compile_to_callable where the release has it). The arena
// is one of the pipeline's buffer arguments, an ImageParam of uint8 and one
// dimension that no stage reads, bound like any other input: JIT keeps its
// user context for itself, so the arena cannot travel there.
//
//     Halide::ImageParam arena(Halide::UInt(8), 1, "arena");
//     Halide::Pipeline p(output);
//     harena::ArgumentPlan plan = harena::plan_into_argument(p, arena, target);
//     Halide::Buffer<uint8_t> memory(int(plan.bytes_at_estimates));
//     arena.set(memory);
//     p.realize(result, target);  // intermediates lie in `memory`
//
// Left unbound, the arena is sized by Halide's bounds inference:
// p.infer_input_bounds(result, target) binds it to a buffer of exactly the
// bytes that call needs (the pipeline answers a bounds query on its arena).
//
// Each call lays its buffers out for its own sizes; a call whose arena is
// too small fails through Halide's error handler (JIT: Halide::RuntimeError)
// naming the argument, the bytes given and the bytes the call needs. For a
// GPU target the plan lies in the buffer's device memory, which the first
// call allocates where the buffer has none, and which the buffer keeps.
#include "Halide.h"

#include <cstdint>
#include <string>

namespace harena {

struct ArgumentPlan {
    // The bytes the plan needs at the estimates of the pipeline's inputs and
    // outputs (set_estimate); sizes without one count as 1024.
    uint64_t bytes_at_estimates = 0;
    // The pipeline's heap intermediates, those planned (in the arena's frame
    // or in a parallel loop's slots), and the parallel loops whose
    // iterations take slots.
    int buffers = 0;
    int buffers_planned = 0;
    int slot_pools = 0;
    // A line per buffer left to Halide's allocator: its name and why.
    std::string unplanned;
};

struct JitPlanOptions {
    // The name errors and reports give the pipeline; empty: its first output's.
    std::string pipeline_name;
    // Where to write the plan report (<name>.arena.json, .csv, .svg); empty: none.
    std::string report_dir;
    // 0: silent; 1: a line per plan; 2: a line per buffer.
    int trace = 0;
    // The slots of each parallel loop whose iterations allocate planned
    // buffers: the most of its tasks that run in the arena at once; more
    // allocate from the heap. Give at least Halide's thread count.
    int parallel_slots = 16;
};

// Plans `pipeline`'s intermediates into `arena` whenever it is compiled for
// `target` (compile for that target only), and lowers it once, up to the
// plan, to find the bytes the plan needs at the estimates. Call it once,
// before the pipeline is first compiled. Throws Halide::CompileError where
// `arena` is not uint8 of one dimension.
ArgumentPlan plan_into_argument(Halide::Pipeline &pipeline, const Halide::ImageParam &arena,
                                const Halide::Target &target, const JitPlanOptions &options = {});

}  // namespace harena
