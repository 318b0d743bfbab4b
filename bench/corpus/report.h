// What the corpus benchmark prints: a table per workload as it is measured,
// its kernel-busy pass, then a summary of every workload, each regime's
// distance from the GPU's own time, each pipeline's plan against its lower
// bound, and the targets, one "met" or "MISSED" line each.
#pragma once

#include "measure.h"
#include "pipelines.h"

#include <vector>

namespace corpus_bench {

void print_workload(const WorkloadResult &result);
void print_summary(const std::vector<WorkloadResult> &results);
// A workload's kernel-busy pass (measure_busy), as it ends.
void print_busy(const WorkloadResult &result);
// Every regime's time over the GPU's own (the kernel-busy time per call).
void print_distance_from_busy(const std::vector<WorkloadResult> &results);
void print_plans(const std::vector<const CorpusPipeline *> &pipelines);
// Returns the number of targets missed.
int print_targets(const std::vector<WorkloadResult> &results);

}  // namespace corpus_bench
