// Timing one workload (a pipeline at one or more sizes) under five regimes
// in one process, interleaved so that drift of the GPU's clocks or of the
// host touches them alike: in each round every regime in turn (the order
// rotating from round to round) runs one untimed call, then one batch of
// calls between two device synchronizations (cuCtxSynchronize in Halide's
// context). Per regime: the median over rounds of batch time / calls, the
// plan's time divided by this regime's in the same round (median over
// rounds), the cuMemAlloc/cuMemFree calls of the timed batches, the arena it
// used, and a check of every step's output against Halide's default, bit for
// bit, after the timed rounds.
#pragma once

#include "device_steps.h"
#include "kernel_busy.h"
#include "pipelines.h"
#include "regime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace corpus_bench {

using bench::Regime;
using bench::regime_name;
// A workload's device-resident argument buffers (tests/support/corpus).
using harena_corpus::make_steps;
using harena_corpus::poison_outputs;
using harena_corpus::seeded_scales;
using harena_corpus::shape;
using harena_corpus::Step;
// The regimes this benchmark runs: those that need no other build of the
// pipeline than its plain and arena CUDA builds.
inline constexpr Regime kRegimes[] = {Regime::halide_default, Regime::arena_override, Regime::arena_plan,
                                      Regime::arena_graph, Regime::override_graph};
inline constexpr int kRegimeCount = 5;
inline constexpr int kDefault = 0, kOverride = 1, kPlan = 2, kGraph = 3, kOverrideGraph = 4;  // indices into kRegimes

struct Settings {
    int calls_per_batch = 16;  // a varying workload's batch is its whole sequence, whatever this is
    int min_rounds = 5;        // medians over at least this many rounds
    int max_rounds = 1001;     // and at most this many; the time below ends it first
    double seconds = 5.0;      // more rounds while the workload has time left
    int busy_rounds = 5;       // rounds of the kernel-busy pass (measure_busy)
};

struct RegimeResult {
    double us_per_call = 0;  // median over rounds
    double fastest_us = 0;
    double slowest_us = 0;
    double plan_ratio = 0;            // median over rounds of the plan's time / this regime's, in the same round
    double default_ratio = 0;         // median over rounds of this regime's time / Halide default's
    double allocations_per_call = 0;  // cuMemAlloc calls per timed call
    double frees_per_call = 0;        // cuMemFree calls per timed call
    // The arena regimes' arena, after every call was made; zero for Halide's default.
    uint64_t arena_capacity = 0;
    uint64_t arena_high_water = 0;
    uint64_t arena_fallbacks = 0;  // allocations that did not fit and went to Halide's allocator
    std::string graph_cache;       // a graph regime's cache statistics
    bool output_same = true;       // every step's output equal to Halide default's, bit for bit
    std::string output;            // "same", "reference", or where it first differs
    // From the kernel-busy pass (measure_busy), 0 where it did not run: per
    // call, the median over its rounds of the time at least one kernel ran
    // (the floor no allocator or launch path can go below) and of the call
    // under CUPTI's recording; kernels per call; and us_per_call / busy_us.
    double busy_us = 0;
    double traced_us = 0;
    double kernels_per_call = 0;
    double to_busy = 0;
};

struct WorkloadResult {
    std::string pipeline;
    bool varies = false;  // a different size on every call
    std::string sizes;    // what the steps were, for the table
    int planned = 0;      // device intermediates the pipeline's plan places
    int calls_per_batch = 0;
    int rounds = 0;
    double seconds = 0;  // the workload's wall time, setup and check included
    RegimeResult regimes[kRegimeCount];
    // What the kernel-busy pass found wrong (lost or incomplete records, busy
    // time above a call's time); empty when nothing.
    std::string busy_problem;
};

WorkloadResult measure(const CorpusPipeline &pipeline, std::vector<Step> &steps, bool varies,
                       const Settings &settings);

// The kernel-busy pass of a workload that measure() timed, on steps made
// alike: every regime's calls again, in rounds of one batch each as
// measure() times them, with CUPTI recording the kernels (kernel_busy.h).
// Run after every workload's timed rounds, since recording slows launches.
// Fills the busy fields of `result`.
void measure_busy(const CorpusPipeline &pipeline, std::vector<Step> &steps, harena_bench::KernelBusyClock &clock,
                  const Settings &settings, WorkloadResult &result);

}  // namespace corpus_bench
