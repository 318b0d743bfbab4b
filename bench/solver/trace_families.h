// The real-trace-shaped families of the solver benchmark
// (solver_instances/instances.h: training_trace, graph_trace), shared by its
// tables and by the files it writes for bench/solver/regression_check.sh.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solver/problem.h"

namespace harena::bench {

struct TraceFamily {
    std::string name;  // also the prefix of the written files' names
    std::function<Problem(size_t n, uint64_t seed)> make;
};

// A training step (one microbatch), accumulated training (four
// microbatches) and a model graph.
const std::vector<TraceFamily> &trace_families();

// The sizes every trace family is measured at: real traces have from about
// a thousand to tens of thousands of buffers.
const std::vector<size_t> &trace_sizes();

// Writes every family at every size for seeds 1..seeds as
// DIR/<family>-<n>-<seed>.csv. Returns false (and says why on stderr) when a
// file cannot be written.
bool write_traces(const std::string &dir, int seeds);

}  // namespace harena::bench
