// What the benchmark prints and writes: the final table (every repeat side by
// side, with the spread between repeats), the graph cache's statistics, the
// targets it checks (targets.cpp), and per app a CSV and an SVG chart
// (report_files.cpp).
#pragma once

#include "measure.h"

#include <string>
#include <vector>

namespace bench {

struct WorkloadResult {
    std::string app;
    std::string size;
    bool varies = false;
    int distinct_sizes = 1;  // sizes in the workload's sequence
    bool launch_bound = false;
    bool capturable = false;   // the plan's verdict on graph capture
    uint64_t arena_bytes = 0;  // the plan's arena and its lower bound
    uint64_t lower_bound = 0;
    std::vector<std::vector<Measurement>> repeats;  // [repeat][regime], in kRegimes order
    BusyPass busy;                                  // the GPU's own time, after every repeat
};

void print_table(const std::vector<WorkloadResult> &results);

// Per workload and repeat: what the graph regime's cache did.
void print_graph_stats(const std::vector<WorkloadResult> &results);

// One line: the graph regime's cache statistics of one measurement.
std::string graph_stats_line(const Measurement &graph_regime);

// One line per target and workload: met or missed, with the numbers.
void print_targets(const std::vector<WorkloadResult> &results);

// <dir>/<app>.csv and <dir>/<app>.svg for every app in results, the folder
// made where missing; false (after a message) where they cannot be written.
bool write_files(const std::vector<WorkloadResult> &results, const std::string &dir, const std::string &device);

}  // namespace bench
