// The ways a benchmark run gets its intermediates' device memory, named once
// for every GPU benchmark: each runs the regimes it can (the corpus benchmark
// the five that need no other build of the pipeline, the threaded one five).
#pragma once

namespace bench {

enum class Regime {
    reuse_off,       // Halide's allocator with its cache switched off: cuMemAlloc/cuMemFree every run
    halide_default,  // the plain CUDA build, no scope: Halide's allocator and its cache
    malloc_async,    // Halide's allocator served by CUDA's stream-ordered pool (driver.h)
    arena_override,  // the plain CUDA build in a harena scope per call, through the device_malloc override
    arena_plan,      // the arena CUDA build, called with a device arena of the size the plan asks for
    arena_graph,     // the same calls through a harena_graph_cache on an arena with its own stream
    override_graph,  // the plain CUDA build through a harena_graph_cache, its allocations placed by the override
    ideal,           // the build that takes every intermediate preallocated
};

inline const char *regime_name(Regime regime) {
    switch (regime) {
    case Regime::reuse_off:
        return "reuse off";
    case Regime::halide_default:
        return "halide default";
    case Regime::malloc_async:
        return "cudaMallocAsync";
    case Regime::arena_override:
        return "arena override";
    case Regime::arena_plan:
        return "arena plan";
    case Regime::arena_graph:
        return "arena graph";
    case Regime::override_graph:
        return "override graph";
    case Regime::ideal:
        return "ideal";
    }
    return "?";
}

}  // namespace bench
