// What the benchmark prints and writes: the final table (every repeat side by
// side, with the spread between repeats), the targets it checks, and per app
// a CSV and an SVG chart.
#pragma once

#include "measure.h"

#include <string>
#include <vector>

namespace bench {

struct WorkloadResult {
    std::string app;
    std::string size;
    bool varies = false;
    bool launch_bound = false;
    uint64_t arena_bytes = 0;  // the plan's arena and its lower bound
    uint64_t lower_bound = 0;
    std::vector<std::vector<Measurement>> repeats;  // [repeat][regime], in kRegimes order
};

void print_table(const std::vector<WorkloadResult> &results);

// One line per target and workload: met or missed, with the numbers.
void print_targets(const std::vector<WorkloadResult> &results);

// <dir>/<app>.csv and <dir>/<app>.svg for every app in results.
void write_files(const std::vector<WorkloadResult> &results, const std::string &dir, const std::string &device);

}  // namespace bench
