// The seven regimes, all in one process: six ways a run can get its
// intermediates' device memory, Halide 14 without and with its allocation
// cache, CUDA's stream-ordered pool (through the driver wrappers, see
// driver.h), the arena's halide_device_malloc override around the unchanged
// pipeline, the pipeline built with the arena plan, and the build that takes
// every intermediate preallocated; and the planned calls captured once as
// CUDA graphs and replayed (graph_calls.h), which changes how the kernels
// are launched as well.
#pragma once

#include "graph_calls.h"
#include "regime.h"
#include "workloads.h"

#include "harena/runtime.h"

#include <cstdint>
#include <memory>

namespace bench {

inline constexpr Regime kRegimes[] = {Regime::reuse_off, Regime::halide_default, Regime::malloc_async,
                                      Regime::arena_override, Regime::arena_plan, Regime::arena_graph,
                                      Regime::ideal};
inline constexpr int kRegimeCount = 7;
static_assert(sizeof(kRegimes) / sizeof(kRegimes[0]) == kRegimeCount, "every regime once");

// Graphs the graph regime's cache holds: as many as the sizes of the
// workload that repeats a few ("k from 8 values").
inline constexpr uint32_t kGraphCapacity = 8;

// Every intermediate of the plan at its worst-case size, each in its own
// slot: more than the override can need, since it allocates the same
// buffers and gives bytes back at the latest when its frame pops.
uint64_t sum_of_worst_cases(const char *plan_json);

struct MemoryUse {
    uint64_t held = 0;        // device bytes the allocator or arena held at its peak
    uint64_t high_water = 0;  // of those, handed out at the peak (0: the allocator cannot tell)
};

// Every regime for one workload. The arenas are made once: the plan's of the
// size the workload's calls need (asked of the pipeline), the graph regime's
// of the same size with its own stream and graph cache, the override's of the
// size the workload's sequence needs (measured by running it once).
// activate() puts the process in one regime until deactivate(): Halide's
// cache is emptied first, so that each activation starts from the same state
// and the memory it reports is its own. The graph cache is not emptied: it
// lives as long as the workload, as a program's would, so that its graphs
// are captured in the first batches and replayed in the timed ones.
class Regimes {
public:
    explicit Regimes(Workload &workload);
    ~Regimes();
    Regimes(const Regimes &) = delete;
    Regimes &operator=(const Regimes &) = delete;

    void activate(Regime regime);
    // One run of the step in the active regime; exits the program if the
    // pipeline fails.
    void run(const Step &step);
    // What the active regime held since its activation.
    [[nodiscard]] MemoryUse memory() const;
    // The graph regime's cache since the workload began (any regime active).
    [[nodiscard]] harena_graph_stats graph_stats() const;
    void deactivate();

private:
    Workload &workload_;
    Regime active_ = Regime::halide_default;
    harena_arena *override_arena_ = nullptr;
    harena_arena *plan_arena_ = nullptr;
    harena_arena *graph_arena_ = nullptr;
    std::unique_ptr<GraphCalls> graphs_;
    void *arena_before_graphs_ = nullptr;  // workload.arena, restored when the graph regime ends
    uint64_t driver_baseline_ = 0;
};

}  // namespace bench
