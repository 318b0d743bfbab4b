// What the threaded benchmark runs: each workload as one thread calls it,
// with its own buffers for every step, whichever pipeline it is. The apps'
// workloads (workloads.h) take their arguments as device views; the corpus's
// (tests/support/corpus) as the corpus drivers make them, device-resident.
#pragma once

#include "harena/cuda.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

class ThreadWorkload {
public:
    virtual ~ThreadWorkload() = default;

    [[nodiscard]] virtual size_t steps() const = 0;
    // Step `i` of the plain build (no arena: Halide's allocator, or the
    // override inside a scope the caller opened).
    virtual int plain(size_t i) = 0;
    // Step `i` of the planned build with `arena` as its arena.
    virtual int planned(size_t i, harena_arena *arena) = 0;
    // Step `i` of the planned build through `cache` (made for the arena the
    // call uses).
    virtual int through_graphs(size_t i, harena_graph_cache *cache) = 0;
    // Waits for step `i`'s output; `user_context` as the call had it.
    virtual int sync(size_t i, void *user_context) = 0;
    // Step `i`'s output set to a pattern no call leaves, so that a check
    // after the next call cannot pass on what an earlier one wrote.
    virtual void poison(size_t i) = 0;
    // Step `i`'s output bytes, copied to the host.
    [[nodiscard]] virtual std::vector<uint8_t> output(size_t i) = 0;
    // An arena the override's calls fit in, from what the plan reports.
    [[nodiscard]] virtual uint64_t override_bytes() = 0;
};

struct ThreadWorkloadSpec {
    std::string name;  // app or pipeline, and size
    std::function<std::unique_ptr<ThreadWorkload>()> make;
};

// The apps' launch-bound fixed sizes and their two workloads whose size
// changes on every call (which graphs cannot replay), then the corpus's two
// pipelines at a fixed size and with the size varying on every call.
std::vector<ThreadWorkloadSpec> thread_workload_specs();

// The corpus part of the list (thread_corpus.cpp).
std::vector<ThreadWorkloadSpec> corpus_thread_workload_specs();

}  // namespace bench
