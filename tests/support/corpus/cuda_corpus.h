// The corpus (generators/corpus) built for CUDA, in one place for every
// program that runs it: each generator's drivers bound to its plain and
// arena CUDA builds, and what the arena build reported about its plan when
// it was generated (<name>.arena.h). Linking harena_corpus_cuda links those
// builds, which share one Halide runtime.
#pragma once

#include <cstdint>
#include <vector>

#include "corpus_pipelines.h"

namespace harena_corpus {

struct CudaCorpusEntry {
    Pipeline pipeline;                // plain: the CUDA build; planned: the CUDA arena build; capturable as its plan says
    const char *plan_json = nullptr;  // the plan report
    uint64_t lower_bound = 0;         // ARENA_LOWER_BOUND
    int planned_buffers = 0;          // ARENA_BUFFERS
    int host_buffers = 0;             // of those, host-only ones in the arena's host companion
};

// In generators/corpus's order.
const std::vector<CudaCorpusEntry> &cuda_corpus();

// The entry of the pipeline named `name`.
const CudaCorpusEntry &cuda_corpus_entry(const char *name);

// The pipelines of cuda_corpus(), for parameterized tests.
const std::vector<Pipeline> &cuda_pipelines();

}  // namespace harena_corpus
