#include "measure.h"

#include "driver.h"
#include "regimes.h"

#include "median.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using harena_bench::median;

namespace corpus_bench {
namespace {

using Clock = std::chrono::steady_clock;

// After the timed rounds, every step once more in every regime, Halide's
// default first; each output poisoned before the call and read back after it.
void check_outputs(Regimes &regimes, std::vector<Step> &steps, WorkloadResult &result) {
    for (size_t i = 0; i < steps.size(); i++) {
        Step &s = steps[i];
        harena_corpus::Workload reference;
        for (int g = 0; g < kRegimeCount; g++) {
            RegimeResult &r = result.regimes[g];
            poison_outputs(s);
            bench::synchronize();  // landed before a call on the graph arena's stream
            regimes.run(kRegimes[g], s);
            bench::synchronize();
            check(harena_corpus::read_back(s.args), "reading an output back");
            if (g == kDefault) {
                r.output = "reference";
                for (auto &out : s.args.outputs) {
                    reference.outputs.push_back(out.copy());
                    const auto *bytes = static_cast<const uint8_t *>(out.data());
                    if (std::all_of(bytes, bytes + out.size_in_bytes(), [](uint8_t b) { return b == 0xA5; })) {
                        fail(std::string(result.pipeline) + ": Halide's default wrote no output at " + shape(s));
                    }
                }
                continue;
            }
            const std::string difference = harena_corpus::difference(reference, s.args);
            if (!difference.empty() && r.output_same) {
                r.output_same = false;
                r.output = "DIFFERS at " + shape(s) + ": " + difference;
            }
        }
    }
    for (int g = 0; g < kRegimeCount; g++) {
        if (g != kDefault && result.regimes[g].output_same) {
            result.regimes[g].output = "same";
        }
    }
}

// Per regime: the time of each round in us per call, and the driver calls
// of all rounds.
struct Timings {
    std::vector<double> times[kRegimeCount];
    bench::DriverCalls driver[kRegimeCount];
};

// Rounds of `calls` calls per regime, the regimes in turn (each round
// starting one further), until there are enough rounds and the time is up.
void time_rounds(Regimes &regimes, std::vector<Step> &steps, int calls, const Settings &settings, Timings &t) {
    const Clock::time_point timing = Clock::now();
    for (int round = 0; round < settings.max_rounds; round++) {
        for (int k = 0; k < kRegimeCount; k++) {
            const int g = (round + k) % kRegimeCount;
            regimes.run(kRegimes[g], steps.back());
            bench::synchronize();
            const bench::DriverCalls before = bench::driver_calls();
            const Clock::time_point t0 = Clock::now();
            for (int i = 0; i < calls; i++) {
                regimes.run(kRegimes[g], steps[static_cast<size_t>(i) % steps.size()]);
            }
            bench::synchronize();
            const Clock::time_point t1 = Clock::now();
            const bench::DriverCalls after = bench::driver_calls();
            t.times[g].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
            t.driver[g].allocations += after.allocations - before.allocations;
            t.driver[g].frees += after.frees - before.frees;
        }
        const double elapsed = std::chrono::duration<double>(Clock::now() - timing).count();
        if (round + 1 >= settings.min_rounds && elapsed > settings.seconds) {
            break;
        }
    }
}

// Each regime's medians and ratios from the rounds.
void summarize(const Timings &t, WorkloadResult &result) {
    const int calls = result.calls_per_batch;
    result.rounds = static_cast<int>(t.times[kDefault].size());
    for (int g = 0; g < kRegimeCount; g++) {
        RegimeResult &r = result.regimes[g];
        std::vector<double> ratios, to_default;
        for (int round = 0; round < result.rounds; round++) {
            ratios.push_back(t.times[kPlan][round] / t.times[g][round]);
            to_default.push_back(t.times[g][round] / t.times[kDefault][round]);
        }
        const double timed_calls = static_cast<double>(result.rounds) * calls;
        r.us_per_call = median(t.times[g]);
        r.fastest_us = *std::min_element(t.times[g].begin(), t.times[g].end());
        r.slowest_us = *std::max_element(t.times[g].begin(), t.times[g].end());
        r.plan_ratio = median(ratios);
        r.default_ratio = median(to_default);
        r.allocations_per_call = static_cast<double>(t.driver[g].allocations) / timed_calls;
        r.frees_per_call = static_cast<double>(t.driver[g].frees) / timed_calls;
    }
}

}  // namespace

WorkloadResult measure(const CorpusPipeline &pipeline, std::vector<Step> &steps, bool varies,
                       const Settings &settings) {
    const Clock::time_point start = Clock::now();
    WorkloadResult result;
    result.pipeline = pipeline.calls.name;
    result.varies = varies;
    // A varying workload's batch is its sequence once, so that every batch
    // holds the same sizes in the same order, and its untimed call is the
    // sequence's last: each batch starts where the previous one left off.
    result.calls_per_batch = varies ? static_cast<int>(steps.size()) : std::max(1, settings.calls_per_batch);
    Regimes regimes(pipeline, steps);
    Timings timings;
    time_rounds(regimes, steps, result.calls_per_batch, settings, timings);
    summarize(timings, result);
    check_outputs(regimes, steps, result);
    for (int g = 0; g < kRegimeCount; g++) {
        regimes.arena_use(kRegimes[g], result.regimes[g]);
    }
    result.regimes[kGraph].graph_cache = regimes.graph_cache_counts(Regime::arena_graph);
    result.regimes[kOverrideGraph].graph_cache = regimes.graph_cache_counts(Regime::override_graph);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

void measure_busy(const CorpusPipeline &pipeline, std::vector<Step> &steps, harena_bench::KernelBusyClock &clock,
                  const Settings &settings, WorkloadResult &result) {
    Regimes regimes(pipeline, steps);
    // Two calls of every step in every regime: the graph regimes' caches
    // hold a replayable graph of each size before the first round.
    for (int g = 0; g < kRegimeCount; g++) {
        for (int pass = 0; pass < 2; pass++) {
            for (Step &s : steps) {
                regimes.run(kRegimes[g], s);
            }
        }
    }
    bench::synchronize();
    const int calls = result.calls_per_batch;
    std::vector<double> busy[kRegimeCount], traced[kRegimeCount], kernels[kRegimeCount];
    for (int round = 0; round < std::max(1, settings.busy_rounds); round++) {
        for (int k = 0; k < kRegimeCount; k++) {
            const int g = (round + k) % kRegimeCount;
            regimes.run(kRegimes[g], steps.back());
            bench::synchronize();
            clock.restart();
            const Clock::time_point t0 = Clock::now();
            for (int i = 0; i < calls; i++) {
                regimes.run(kRegimes[g], steps[static_cast<size_t>(i) % steps.size()]);
            }
            bench::synchronize();
            const Clock::time_point t1 = Clock::now();
            const harena_bench::KernelBusy b = clock.busy();
            const double traced_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
            busy[g].push_back(b.us / calls);
            traced[g].push_back(traced_us / calls);
            kernels[g].push_back(static_cast<double>(b.kernels) / calls);
            const std::string problem = harena_bench::busy_problem(b, traced_us);
            if (!problem.empty() && result.busy_problem.empty()) {
                result.busy_problem = std::string(regime_name(kRegimes[g])) + ": " + problem;
            }
        }
    }
    for (int g = 0; g < kRegimeCount; g++) {
        RegimeResult &r = result.regimes[g];
        r.busy_us = median(busy[g]);
        r.traced_us = median(traced[g]);
        r.kernels_per_call = median(kernels[g]);
        r.to_busy = r.busy_us > 0 ? r.us_per_call / r.busy_us : 0;
    }
}

}  // namespace corpus_bench
