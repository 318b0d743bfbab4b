#pragma once
// A corpus pipeline's builds called through a CUDA graph cache
// (harena/cuda.h), as the corpus GPU graph test and the corpus benchmark's
// graph regimes call them.
#include "corpus_pipelines.h"

#include "harena/cuda.h"

namespace harena_corpus {

// One planned call through `cache`, whose arena is passed to the pipeline.
// The key bytes are the planned function and the call index its scalar
// arguments follow (corpus_pipelines.h); the cache adds every argument
// buffer's device address and shape and the arena's state. Returns the
// pipeline's result; *outcome (may be null) says how it ran.
int run_planned_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome);

// The same for the plain build, which takes no arena: its device
// allocations reach the cache's arena through the override
// (harena_device_override), which the program must link. The key's bytes
// are the plain function and the call index.
int run_plain_through_graphs(harena_graph_cache *cache, const Pipeline &pipeline, Workload &w, int *outcome);

}  // namespace harena_corpus
