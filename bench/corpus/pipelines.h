// The corpus as the benchmark runs it: each generator's two CUDA builds bound
// to the corpus drivers (tests/support/corpus/cuda_corpus.h), and what the
// planned build reported about its plan when it was generated (<name>.arena.h
// and the plan JSON in it).
#pragma once

#include "corpus_pipelines.h"

#include <cstdint>
#include <vector>

namespace corpus_bench {

struct PlanReport {
    bool bounded = false;          // every planned size has a declared maximum
    uint64_t bytes = 0;            // ARENA_BYTES (bounded) or ARENA_BYTES_AT_ESTIMATES: the plan's arena
    uint64_t lower_bound = 0;      // ARENA_LOWER_BOUND: peak of the live planned bytes at the same sizes
    int planned_buffers = 0;       // ARENA_BUFFERS
    int device_intermediates = 0;  // buffers of the plan JSON that live on the device
    int planned_device = 0;        // of those, the planned ones
};

struct CorpusPipeline {
    harena_corpus::Pipeline calls;  // calls.plain: the CUDA build; calls.planned: the CUDA arena build
    PlanReport plan;
};

// The corpus generators, in generators/corpus's order.
const std::vector<CorpusPipeline> &corpus();

}  // namespace corpus_bench
