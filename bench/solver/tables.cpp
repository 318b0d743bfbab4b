// The tables of harena-solver-bench: each measures a set of instances
// (every plan validated) and prints one Markdown table.
#include "tables.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "solver/validator.h"
#include "solver_instances/instances.h"
#include "trace_families.h"

namespace harena::bench {

namespace {

// CPU time of this thread: unlike wall time, not inflated when other
// processes share the machine.
double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

}  // namespace

// Solves `problem` `repeats` times (the plan is the same each time unless a
// wall-clock cap cut it short; only the time varies), validates the plan and
// records the median time.
Plan measure(const Problem &problem, const SolverOptions &options, int repeats, Stats &stats) {
    Plan plan;
    std::vector<double> ms;
    for (int r = 0; r < repeats; r++) {
        double start = cpu_seconds();
        plan = harena::solve(problem, options);
        ms.push_back((cpu_seconds() - start) * 1e3);
    }
    harena::Validation v = harena::validate(problem, plan);
    if (!v.ok) {
        std::fprintf(stderr, "invalid plan: %s\n", v.error.c_str());
        std::exit(1);
    }
    const double median = quantile(ms, 0.5);
    stats.ms.push_back(median);
    stats.ratio_sum += plan.ratio();
    stats.ratio_max = std::max(stats.ratio_max, plan.ratio());
    stats.plans++;
    stats.at_bound += plan.arena_bytes == plan.lower_bound;
    if (plan.arena_bytes == plan.lower_bound) stats.optimal_ms.push_back(median);
    stats.within += plan.ratio() <= 1.0001;
    return plan;
}

void families_table(const std::vector<Family> &families, bool quick, const SolverOptions &options) {
    std::printf(
        "| family | buffers | instances x repeats | median ms | max ms | mean ratio | max ratio | at bound | within "
        "0.01%% |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Family &family : families) {
        for (size_t n : family.sizes) {
            if (quick && n > 10000) continue;
            // Fewer instances as they grow; every instance is solved three times
            // (once in a quick run) and its median time kept.
            int instances = quick ? (n <= 1000 ? 5 : 1) : n <= 1000 ? 10 :
                                                      n <= 10000    ? 5 :
                                                      n <= 100000   ? 2 :
                                                                      1;
            int repeats = quick ? 1 : 3;
            Stats stats;
            for (int k = 0; k < instances; k++)
                measure(family.make(n, uint64_t(k) + 1), options, repeats, stats);
            std::printf("| %s | %zu | %d x %d | %.2f | %.2f | %.6f | %.6f | %d/%d | %d/%d |\n", family.name, n, instances,
                        repeats, quantile(stats.ms, 0.5), stats.max_ms(), stats.ratio_sum / stats.plans, stats.ratio_max,
                        stats.at_bound, stats.plans, stats.within, stats.plans);
            std::fflush(stdout);
        }
    }
}

// Packings, whose lower bound is the optimum: how many reach it, and how
// long that takes (a solve stops once it reaches the bound, so its time is
// the time to the optimum).
void packings_table(const std::vector<Family> &families, int seeds,
                    const std::function<SolverOptions(size_t)> &options_for, double within_ms) {
    std::printf(
        "| family | buffers | optimal | within %.0f s | time to optimum: median / 90%% / max ms | mean ratio | max "
        "ratio |\n",
        within_ms / 1e3);
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Family &family : families) {
        int optimal = 0, in_time = 0, total = 0;
        for (size_t n : family.sizes) {
            Stats stats;
            for (int seed = 1; seed <= seeds; seed++)
                measure(family.make(n, uint64_t(seed)), options_for(n), 1, stats);
            int fast = int(std::count_if(stats.optimal_ms.begin(), stats.optimal_ms.end(),
                                         [&](double ms) { return ms <= within_ms; }));
            std::printf("| %s | %zu | %d/%d | %d/%d | %.1f / %.1f / %.1f | %.5f | %.5f |\n", family.name, n, stats.at_bound,
                        stats.plans, fast, stats.plans, quantile(stats.optimal_ms, 0.5), quantile(stats.optimal_ms, 0.9),
                        stats.optimal_ms.empty() ? 0.0 : quantile(stats.optimal_ms, 1.0), stats.ratio_sum / stats.plans,
                        stats.ratio_max);
            std::fflush(stdout);
            optimal += stats.at_bound;
            in_time += fast;
            total += stats.plans;
        }
        std::printf("| %s | all | %d/%d | %d/%d | | | |\n", family.name, optimal, total, in_time, total);
    }
}

void suite_table(const std::function<SolverOptions(size_t)> &options_for) {
    std::printf("| instance | buffers | arena / lower bound | at bound | cpu ms |\n");
    std::printf("|---|---:|---:|---:|---:|\n");
    int at_bound = 0;
    for (size_t k = 0; k < 11; k++) {
        Stats stats;
        Problem problem = suite_instance(k);
        Plan plan = measure(problem, options_for(problem.buffers.size()), 1, stats);
        at_bound += stats.at_bound;
        std::printf("| %c | %zu | %.5f | %s | %.0f |\n", char('A' + k), plan.offsets.size(), plan.ratio(),
                    stats.at_bound ? "yes" : "no", stats.ms[0]);
        std::fflush(stdout);
    }
    std::printf("| all | | | %d/11 | |\n", at_bound);
}

// Capacity mode on the same instances, as harena-plan --capacity 2^20 runs
// it (capacity_options): which fit, and how long that takes.
void capacity_table() {
    const SolverOptions options = capacity_options(uint64_t(1) << 20);
    std::printf("| instance | buffers | lower bound / 2^20 | arena / 2^20 | fits | cpu ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    int fits = 0;
    for (size_t k = 0; k < 11; k++) {
        Stats stats;
        Problem problem = suite_instance(k);
        Plan plan = measure(problem, options, 1, stats);
        const bool fit = plan.arena_bytes <= options.capacity;
        fits += fit;
        std::printf("| %c | %zu | %.5f | %.5f | %s | %.0f |\n", char('A' + k), plan.offsets.size(),
                    double(plan.lower_bound) / double(options.capacity), double(plan.arena_bytes) / double(options.capacity),
                    fit ? "yes" : "no", stats.ms[0]);
        std::fflush(stdout);
    }
    std::printf("| all | | | | %d/11 | |\n", fits);
}

Problem suite_instance(size_t k) {
    const size_t sizes[] = {154, 170, 203, 213, 215, 296, 308, 316, 374, 409, 454};
    return harena::instances::cut_square(sizes[k] * 4 / 3, k + 1, false);
}

// Uniform random at 1,000 buffers on seeds the default options were never
// tuned on: the ratio target holds beyond the table's ten instances.
void fresh_table(const SolverOptions &options) {
    std::printf("| seeds | instances | median ms | max ms | mean ratio | max ratio | within 0.01%% |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    Stats stats;
    for (uint64_t seed = 1001; seed <= 1100; seed++) {
        measure(harena::instances::uniform_random(1000, seed), options, 1, stats);
    }
    std::printf("| 1001-1100 | %d | %.2f | %.2f | %.5f | %.5f | %d/%d |\n", stats.plans, quantile(stats.ms, 0.5),
                stats.max_ms(), stats.ratio_sum / stats.plans, stats.ratio_max, stats.within, stats.plans);
}

// The real-trace-shaped families, two seeds each, one solve per instance
// (their plans are deterministic; at these sizes one solve is long enough to
// time), and the training family at 1,000,000 buffers.
void traces_table(const SolverOptions &options, bool million) {
    std::printf("| family | buffers | instances | median ms | max ms | mean ratio | max ratio | within 0.1%% |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    auto row = [&](const std::string &name, size_t n, int seeds, const std::function<Problem(size_t, uint64_t)> &make) {
        Stats stats;
        int within = 0;
        for (int seed = 1; seed <= seeds; seed++) {
            within += measure(make(n, uint64_t(seed)), options, 1, stats).ratio() <= 1.001;
        }
        std::printf("| %s | %zu | %d | %.1f | %.1f | %.6f | %.6f | %d/%d |\n", name.c_str(), n, stats.plans,
                    quantile(stats.ms, 0.5), stats.max_ms(), stats.ratio_sum / stats.plans, stats.ratio_max, within,
                    stats.plans);
        std::fflush(stdout);
    };
    for (const harena::bench::TraceFamily &family : harena::bench::trace_families()) {
        for (size_t n : harena::bench::trace_sizes())
            row(family.name, n, 2, family.make);
    }
    if (million) row("training", 1000000, 1, harena::bench::trace_families()[0].make);
}

}  // namespace harena::bench
