// Timing one workload under every regime, interleaved so that drift of the
// GPU's clocks or of the host touches all regimes alike: in each round every
// regime in turn (the order rotating from round to round) is activated,
// warmed up with one batch of runs, timed for one batch between device
// synchronizations (cuCtxSynchronize: every stream of Halide's context, the
// graph arena's included), and deactivated. Per regime: the median per-run
// time over rounds, the medians over rounds of its time divided by the
// ideal's and by the plan's in the same round, the driver allocation calls
// and graph replays of the timed runs, the memory it held, and a check of
// every step's output (poisoned before each run) against the plain
// pipeline's.
//
// The plain and planned builds must agree bit for bit. The ideal build is a
// different pipeline (its intermediates are outputs), and the code generator
// may contract a multiply and an add into one FMA in one build and not the
// other, so it is held to a relative 1e-5.
#pragma once

#include "kernel_busy.h"
#include "regimes.h"
#include "workloads.h"

#include <string>
#include <vector>

namespace bench {

struct Settings {
    int runs_per_batch = 32;            // at least one pass over a varying workload's sequence
    int min_rounds = 9;                 // medians over at least this many rounds
    int max_rounds = 1001;              // and at most this many; the time below ends it first
    double seconds_per_workload = 4.0;  // more rounds while time is left
    int busy_rounds = 5;                // rounds of the kernel-busy pass (measure_busy)
};

enum class OutputCheck {
    identical,  // bit for bit, every step
    close,      // within a relative 1e-5, every step
    differs,
};

const char *output_check_name(OutputCheck check);

struct Measurement {
    Regime regime = Regime::ideal;
    double median_us = 0;  // per run: median over rounds
    double fastest_us = 0;
    double slowest_us = 0;
    double ratio_to_ideal = 0;  // median over rounds of this regime's time / the ideal's
    double ratio_to_plan = 0;   // median over rounds of this regime's time / the arena plan's
    int rounds = 0;
    double allocations_per_run = 0;  // cuMemAlloc calls (or pool allocations) per timed run
    double frees_per_run = 0;
    double replays_per_run = 0;  // graph launches of a cached graph per timed run (the graph regime's)
    MemoryUse memory;            // the largest over activations
    OutputCheck output = OutputCheck::identical;
    // The graph regime: its cache's statistics over the whole workload
    // (warm-up and timed batches, the output check); zero for the others.
    harena_graph_stats graph{};
};

// One Measurement per regime, in kRegimes order.
std::vector<Measurement> measure(Workload &workload, const Settings &settings);

// Per regime, from the kernel-busy pass: the median over its rounds of the
// time per run in which at least one kernel ran (the floor no allocator or
// launch path can go below), of the run's time while CUPTI records, and the
// kernels per run.
struct Busy {
    double busy_us = 0;
    double traced_us = 0;
    double kernels_per_run = 0;
};
struct BusyPass {
    std::vector<Busy> regimes;  // in kRegimes order; empty where the pass did not run
    std::string problem;        // lost or incomplete records, or busy time above a batch's; empty when none
};

// The kernel-busy pass of a workload: every regime's runs again, in rounds
// of one batch each as measure() times them, with CUPTI recording the
// kernels (kernel_busy.h). Run after every timed round, since recording
// slows launches.
BusyPass measure_busy(Workload &workload, const Settings &settings, harena_bench::KernelBusyClock &clock);

}  // namespace bench
