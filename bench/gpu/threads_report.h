// What harena-threads-bench measures and how it is shown: one row per
// workload, regime, GPU count and threads per GPU; a table, a CSV and one SVG
// chart per workload and GPU count of calls per second against threads.
#pragma once

#include "regimes.h"

#include <string>
#include <vector>

namespace bench {

// A regime of the threaded benchmark: one of the single-threaded benchmark's,
// and for Halide's default, whether each thread launches on a stream of its
// own (through halide_set_cuda_get_stream) instead of the legacy default one.
struct ThreadRegime {
    Regime regime;
    bool stream_per_thread;
};

inline constexpr ThreadRegime kThreadRegimes[] = {
    {Regime::halide_default, false},
    {Regime::halide_default, true},
    {Regime::arena_override, false},
    {Regime::arena_plan, false},
    {Regime::arena_graph, false},
};

std::string thread_regime_name(const ThreadRegime &regime);

struct ThreadRow {
    std::string workload;  // app and size
    ThreadRegime regime;
    int threads = 1;              // per GPU
    int devices = 1;              // GPUs the threads are spread over
    double calls_per_second = 0;  // over all threads
    double p50_us = 0, p99_us = 0;
    // The least busy thread's calls over the busiest's: near 1 when every
    // thread ran throughout, far below where one was held up.
    double balance = 0;
    bool bit_identical = false;  // every thread's every output, after the timed calls
};

void print_row(const ThreadRow &row);
// Calls per second by thread count, one line per workload, GPU count and
// regime, with each regime's ratio to Halide's default at the same thread
// count; then, where several GPUs were measured, each row's ratio to one GPU
// with the same threads per GPU.
void print_table(const std::vector<ThreadRow> &rows);
void write_csv(const std::vector<ThreadRow> &rows, const std::string &path);
// `dir`/threads-<workload>.svg for each workload (-<D>gpus.svg for D GPUs).
void write_svg(const std::vector<ThreadRow> &rows, const std::string &dir);

}  // namespace bench
