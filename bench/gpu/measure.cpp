#include "measure.h"

#include "driver.h"
#include "median.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

using harena_bench::median;

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;
using Outputs = std::vector<std::vector<float>>;

constexpr size_t kIdeal = kRegimeCount - 1;
constexpr size_t kPlan = 4;
constexpr size_t kGraph = 5;
static_assert(kRegimes[kIdeal] == Regime::ideal, "the ideal is the last regime");
static_assert(kRegimes[kPlan] == Regime::arena_plan && kRegimes[kGraph] == Regime::arena_graph,
              "measure's indices follow kRegimes");

// Runs every step once in `regime` and copies its output to the host. The
// output is poisoned first (and the poison waited for: the graph regime's
// stream does not wait for Halide's), so that a run that wrote nothing, such
// as a replay of an empty graph, cannot pass on the output left before it.
Outputs outputs(Regimes &regimes, Regime regime, Workload &workload) {
    regimes.activate(regime);
    Outputs all;
    for (const auto &step : workload.steps) {
        step->output->poison();
        synchronize();
        regimes.run(*step);
        synchronize();
        all.push_back(step->output->read());
    }
    regimes.deactivate();
    return all;
}

OutputCheck compare(const Outputs &got, const Outputs &reference) {
    bool identical = true;
    for (size_t s = 0; s < got.size(); s++) {
        identical = identical && std::memcmp(got[s].data(), reference[s].data(), got[s].size() * sizeof(float)) == 0;
    }
    if (identical) {
        return OutputCheck::identical;
    }
    for (size_t s = 0; s < got.size(); s++) {
        for (size_t i = 0; i < got[s].size(); i++) {
            const float a = got[s][i], b = reference[s][i];
            if (!(std::fabs(a - b) <= 1e-5f * std::max(1.0f, std::fabs(b)))) {
                return OutputCheck::differs;
            }
        }
    }
    return OutputCheck::close;
}

void run_batch(Regimes &regimes, const Workload &workload, int runs) {
    for (int i = 0; i < runs; i++) {
        regimes.run(*workload.steps[i % workload.steps.size()]);
    }
}

}  // namespace

const char *output_check_name(OutputCheck check) {
    switch (check) {
    case OutputCheck::identical:
        return "same";
    case OutputCheck::close:
        return "close";
    case OutputCheck::differs:
        return "DIFFERS";
    }
    return "?";
}

std::vector<Measurement> measure(Workload &workload, const Settings &settings) {
    Regimes regimes(workload);
    const int runs = std::max<int>(settings.runs_per_batch, static_cast<int>(workload.steps.size()));
    std::vector<std::vector<double>> times(kRegimeCount);  // [regime][round], us per run
    std::vector<Measurement> m(kRegimeCount);
    std::vector<DriverCalls> calls(kRegimeCount);
    std::vector<uint64_t> replays(kRegimeCount, 0);
    const Clock::time_point start = Clock::now();
    for (int round = 0; round < settings.max_rounds; round++) {
        for (int k = 0; k < kRegimeCount; k++) {
            const size_t g = static_cast<size_t>((round + k) % kRegimeCount);
            regimes.activate(kRegimes[g]);
            run_batch(regimes, workload, runs);
            synchronize();
            const DriverCalls before = driver_calls();
            const uint64_t replays_before = regimes.graph_stats().replays;
            const Clock::time_point t0 = Clock::now();
            run_batch(regimes, workload, runs);
            synchronize();
            const Clock::time_point t1 = Clock::now();
            const DriverCalls after = driver_calls();
            replays[g] += regimes.graph_stats().replays - replays_before;
            times[g].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / runs);
            calls[g].allocations += after.allocations - before.allocations;
            calls[g].frees += after.frees - before.frees;
            const MemoryUse memory = regimes.memory();
            m[g].memory.held = std::max(m[g].memory.held, memory.held);
            m[g].memory.high_water = std::max(m[g].memory.high_water, memory.high_water);
            regimes.deactivate();
        }
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (round + 1 >= settings.min_rounds && elapsed > settings.seconds_per_workload) {
            break;
        }
    }

    const Outputs reference = outputs(regimes, Regime::halide_default, workload);
    for (size_t g = 0; g < kRegimeCount; g++) {
        std::vector<double> ratios, to_plan;
        for (size_t r = 0; r < times[g].size(); r++) {
            ratios.push_back(times[g][r] / times[kIdeal][r]);
            to_plan.push_back(times[g][r] / times[kPlan][r]);
        }
        const double timed_runs = static_cast<double>(times[g].size()) * runs;
        m[g].regime = kRegimes[g];
        m[g].rounds = static_cast<int>(times[g].size());
        m[g].median_us = median(times[g]);
        m[g].fastest_us = *std::min_element(times[g].begin(), times[g].end());
        m[g].slowest_us = *std::max_element(times[g].begin(), times[g].end());
        m[g].ratio_to_ideal = median(ratios);
        m[g].ratio_to_plan = median(to_plan);
        m[g].allocations_per_run = static_cast<double>(calls[g].allocations) / timed_runs;
        m[g].frees_per_run = static_cast<double>(calls[g].frees) / timed_runs;
        m[g].replays_per_run = static_cast<double>(replays[g]) / timed_runs;
        m[g].output = compare(outputs(regimes, kRegimes[g], workload), reference);
    }
    m[kGraph].graph = regimes.graph_stats();
    return m;
}

BusyPass measure_busy(Workload &workload, const Settings &settings, harena_bench::KernelBusyClock &clock) {
    Regimes regimes(workload);
    const int runs = std::max<int>(settings.runs_per_batch, static_cast<int>(workload.steps.size()));
    // Two batches of each regime first: the graph regime's cache holds its
    // graphs before the first round, as in measure()'s timed batches.
    for (const Regime regime : kRegimes) {
        regimes.activate(regime);
        run_batch(regimes, workload, 2 * runs);
        synchronize();
        regimes.deactivate();
    }
    std::vector<std::vector<double>> busy(kRegimeCount), traced(kRegimeCount), kernels(kRegimeCount);
    BusyPass pass;
    for (int round = 0; round < std::max(1, settings.busy_rounds); round++) {
        for (int k = 0; k < kRegimeCount; k++) {
            const size_t g = static_cast<size_t>((round + k) % kRegimeCount);
            regimes.activate(kRegimes[g]);
            run_batch(regimes, workload, runs);
            synchronize();
            clock.restart();
            const Clock::time_point t0 = Clock::now();
            run_batch(regimes, workload, runs);
            synchronize();
            const Clock::time_point t1 = Clock::now();
            const harena_bench::KernelBusy b = clock.busy();
            regimes.deactivate();
            const double traced_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
            busy[g].push_back(b.us / runs);
            traced[g].push_back(traced_us / runs);
            kernels[g].push_back(static_cast<double>(b.kernels) / runs);
            const std::string problem = harena_bench::busy_problem(b, traced_us);
            if (!problem.empty() && pass.problem.empty()) {
                pass.problem = std::string(regime_name(kRegimes[g])) + ": " + problem;
            }
        }
    }
    for (size_t g = 0; g < kRegimeCount; g++) {
        pass.regimes.push_back({median(busy[g]), median(traced[g]), median(kernels[g])});
    }
    return pass;
}

}  // namespace bench
