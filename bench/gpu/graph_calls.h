// The arena graph regime's calls: the planned pipeline through a
// harena_graph_cache on an arena with a non-blocking stream of its own. The
// first call with a key (the planned entry point, the step's scalars, its
// buffers' addresses and shapes) runs as an ordinary planned call, the
// second is captured on the arena's stream and launched, later ones replay
// the graph. The benchmark's inputs and outputs are device views that are
// never host-dirty, so no call has to fall back for an argument on the host.
#pragma once

#include "workloads.h"

#include "harena/cuda.h"

#include <cstdint>

namespace bench {

// The planned pipeline's result for the step through `cache`, run, captured
// or replayed.
int run_through_graphs(harena_graph_cache *cache, const App &app, const Step &step);

class GraphCalls {
public:
    // Gives `arena` its own stream and makes a cache of `capacity` graphs
    // for it. The arena must outlive this object.
    GraphCalls(harena_arena *arena, uint32_t capacity);
    ~GraphCalls();
    GraphCalls(const GraphCalls &) = delete;
    GraphCalls &operator=(const GraphCalls &) = delete;

    // The planned pipeline's result for the step, run, captured or replayed.
    int run(const App &app, const Step &step);
    [[nodiscard]] harena_graph_stats stats() const;

private:
    harena_graph_cache *cache_ = nullptr;
};

}  // namespace bench
