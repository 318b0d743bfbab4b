// harena-solver-bench: for each problem family and size, the solve time and
// the arena / lower-bound ratio; how many packings (where the lower bound is
// the optimum) reach it, and how long that takes. Every plan is validated.
//
// usage: harena-solver-bench [--quick] [--fresh] [--large] [--hard] [--traces] [--capacity] [--only]
//        harena-solver-bench --instance FAMILY N SEED [--default]
//        harena-solver-bench --write-traces DIR SEEDS
//   --quick  fewer and smaller instances, for a smoke run
//   --fresh  also 100 uniform-random 1,000-buffer instances from seeds
//            1001-1100, which no option was tuned on
//   --large  also the forward-backward family at 1,000,000 buffers
//            (a few minutes, most of it validating the plan)
//   --hard   also the hard packings with a budget of several seconds each
//            (about 15 minutes)
//   --traces also the real-trace-shaped families (trace_families.h) with
//            default options and with a 5 s budget, and the training
//            family at 1,000,000 buffers
//   --traces-default  the same with default options only
//   --only   only the tables the other options ask for, not the default
//            and greedy families and the packings
//   --capacity  also capacity mode (capacity 2^20, 10 s each) on the
//            published-suite-like instances
//   --write-traces  only write the real-trace-shaped instances as CSV files
//            (for regression_check.sh)
//   --instance  only one packing, with the long search of --hard (or the
//            default options with --default), one line: for quick checks.
//            FAMILY: perfect, cut, thinned or suite (N is then the letter's
//            index, 0-10, and SEED is ignored)
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "solver/instances.h"
#include "solver/solver.h"
#include "solver/validator.h"
#include "trace_families.h"

namespace {

using harena::Plan;
using harena::Problem;
using harena::SolverOptions;

// CPU time of this thread: unlike wall time, not inflated when other
// processes share the machine.
double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown";
}

double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

struct Stats {
    std::vector<double> ms;          // one per instance: the median over its repeats
    std::vector<double> optimal_ms;  // the same, for the plans at the lower bound
    double ratio_sum = 0, ratio_max = 0;
    int plans = 0, at_bound = 0, within = 0;  // within: 0.01% of the bound

    double max_ms() const {
        return ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end());
    }
};

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

struct Family {
    const char *name;
    std::function<Problem(size_t, uint64_t)> make;
    std::vector<size_t> sizes;
};

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

// Eleven instances shaped like the published hard suite (capacity 2^20, a
// quarter of the pieces dropped, and about its sizes once they are: each
// square is cut into a third more pieces), one line each.
Problem suite_instance(size_t k);

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
// it (a 10 s cap, no other budget): which fit, and how long that takes.
void capacity_table() {
    SolverOptions options;
    options.capacity = uint64_t(1) << 20;
    options.time_budget_ms = 10000;
    options.improve_passes = options.improve_placements_per_buffer = options.search_work_per_buffer = UINT64_MAX;
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

// The instances of the published-suite-like table (see suite_table).
Problem suite_instance(size_t k) {
    const size_t sizes[] = {154, 170, 203, 213, 215, 296, 308, 316, 374, 409, 454};
    return harena::instances::cut_square(sizes[k] * 4 / 3, k + 1, false);
}

// --instance: one packing, one line.
int one_instance(const std::string &family, size_t n, uint64_t seed,
                 const std::function<SolverOptions(size_t)> &options_for) {
    namespace inst = harena::instances;
    Problem problem;
    if (family == "perfect") {
        problem = inst::perfect_packing(n, seed);
    } else if (family == "cut" || family == "thinned") {
        problem = inst::cut_square(n, seed, family == "cut");
    } else if (family == "suite" && n < 11) {
        problem = suite_instance(n);
    } else {
        std::fprintf(stderr, "unknown family '%s' (perfect, cut, thinned, suite 0-10)\n", family.c_str());
        return 2;
    }
    Stats stats;
    Plan plan = measure(problem, options_for(problem.buffers.size()), 1, stats);
    std::printf("%s %zu %llu: ratio %.5f, %s, %.1f ms cpu, %s\n", family.c_str(), n, (unsigned long long)seed,
                plan.ratio(), stats.at_bound ? "optimal" : "not optimal", stats.ms[0], plan.method.c_str());
    return 0;
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

void print_options(const SolverOptions &o) {
    std::printf(
        "lowest_first_orders %zu, lowest_first_work_per_buffer %llu, first_fit_orders %zu, slack_weight %g, "
        "improve_passes %llu, improve_placements_per_buffer %llu, search_max_buffers %zu, search_work_per_buffer "
        "%llu, search_node_limit %llu, good_enough_ratio %g, time_budget_ms %g\n\n",
        o.lowest_first_orders.size(), (unsigned long long)o.lowest_first_work_per_buffer,
        o.first_fit_orders.size(), o.slack_weight, (unsigned long long)o.improve_passes,
        (unsigned long long)o.improve_placements_per_buffer, o.search_max_buffers,
        (unsigned long long)o.search_work_per_buffer, (unsigned long long)o.search_node_limit, o.good_enough_ratio,
        o.time_budget_ms);
}

}  // namespace

int main(int argc, char **argv) {
    bool quick = false, fresh = false, large = false, hard = false, traces = false, capacity = false,
         defaults_only = false, traces_budget = true, only = false;
    const char *instance = nullptr;
    size_t instance_n = 0;
    uint64_t instance_seed = 0;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--instance") == 0 && i + 3 < argc) {
            instance = argv[i + 1];
            instance_n = std::strtoull(argv[i + 2], nullptr, 10);
            instance_seed = std::strtoull(argv[i + 3], nullptr, 10);
            i += 3;
        } else if (std::strcmp(argv[i], "--write-traces") == 0 && i + 2 < argc) {
            return harena::bench::write_traces(argv[i + 1], std::atoi(argv[i + 2])) ? 0 : 1;
        } else if (std::strcmp(argv[i], "--capacity") == 0) {
            capacity = true;
        } else if (std::strcmp(argv[i], "--traces") == 0) {
            traces = true;
        } else if (std::strcmp(argv[i], "--traces-default") == 0) {
            traces = true;
            traces_budget = false;
        } else if (std::strcmp(argv[i], "--only") == 0) {
            only = true;
        } else if (std::strcmp(argv[i], "--default") == 0) {
            defaults_only = true;
        } else if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (std::strcmp(argv[i], "--fresh") == 0) {
            fresh = true;
        } else if (std::strcmp(argv[i], "--large") == 0) {
            large = true;
        } else if (std::strcmp(argv[i], "--hard") == 0) {
            hard = true;
        } else {
            std::fprintf(stderr,
                         "usage: harena-solver-bench [--quick] [--fresh] [--large] [--hard] [--traces|--traces-default]\n"
                         "                           [--capacity] [--only]\n"
                         "       harena-solver-bench --instance perfect|cut|thinned|suite N SEED [--default]\n"
                         "       harena-solver-bench --write-traces DIR SEEDS\n");
            return 2;
        }
    }

    namespace inst = harena::instances;
    const std::vector<size_t> sizes = {100, 1000, 10000, 100000};
    std::vector<size_t> program_sizes = {1000, 10000, 62185};
    if (large) program_sizes.push_back(1000000);
    const std::vector<Family> families = {
        {"uniform random", inst::uniform_random, sizes},
        {"pipeline", inst::pipeline, sizes},
        {"perfect packing", inst::perfect_packing, sizes},
        {"forward-backward", inst::forward_backward, program_sizes},
    };
    const std::vector<size_t> hard_sizes = {150, 250, 350, 450};
    const std::vector<Family> packings = {
        {"perfect packing", inst::perfect_packing, hard_sizes},
        {"cut square", [](size_t n, uint64_t seed) { return inst::cut_square(n, seed, true); }, hard_sizes},
        {"thinned cut square", [](size_t n, uint64_t seed) { return inst::cut_square(n, seed, false); }, hard_sizes},
    };

    SolverOptions defaults;
    SolverOptions greedy_only;
    greedy_only.improve_passes = 0;
    greedy_only.search_work_per_buffer = 0;
    // About 6 s of this machine's CPU for the search at any size (a work
    // unit takes about a nanosecond), and no wall-clock cap (other work on
    // the machine would cut it short): runs are deterministic, and a solve's
    // CPU time is its time to the optimum.
    const uint64_t long_search_work = 6'000'000'000;
    auto long_search = [&](size_t n) {
        SolverOptions options;
        options.search_work_per_buffer = long_search_work / n;
        options.time_budget_ms = 0;
        options.good_enough_ratio = 1.0;
        return options;
    };
    auto default_options = [](size_t) { return SolverOptions{}; };
    if (instance != nullptr) {
        return one_instance(instance, instance_n, instance_seed,
                            defaults_only ? std::function<SolverOptions(size_t)>(default_options) : long_search);
    }

    std::printf("# harena-solver-bench%s%s%s%s%s%s\n\n", quick ? " --quick" : "", fresh ? " --fresh" : "",
                large ? " --large" : "", hard ? " --hard" : "",
                !traces ? "" : traces_budget ? " --traces" :
                                               " --traces-default",
                only ? " --only" : "");
    std::printf("machine: %u hardware threads, %s\n", std::thread::hardware_concurrency(), cpu_model().c_str());
    std::printf("times: CPU time of the solving thread, in ms, per solve() call (one core); the median of 3 solves\n");
    std::printf("ratio: arena bytes / lower bound; at bound: plans whose arena equals the lower bound;\n");
    std::printf("within 0.01%%: plans within the default good_enough_ratio, where improvement stops\n\n");

    std::printf("## Default options\n\n");
    print_options(defaults);
    if (!only) {
        families_table(families, quick, defaults);
        std::printf("\n## Greedy passes only (improve_passes = 0, search_work_per_buffer = 0)\n\n");
        families_table(families, quick, greedy_only);
        std::printf("\n## Packings, default options\n\n");
        packings_table(packings, quick ? 3 : 10, default_options, 5000);
    }
    if (hard) {
        std::printf(
            "\n## Packings, a long search (search work %llu per instance: search_work_per_buffer %llu / buffers; no "
            "wall-clock cap; good_enough_ratio 1)\n\n",
            (unsigned long long)long_search_work, (unsigned long long)long_search_work);
        packings_table(packings, quick ? 3 : 10, long_search, 5000);
        std::printf("\n## Like the published hard suite, a long search\n\n");
        suite_table(long_search);
    }
    if (capacity) {
        std::printf("\n## Capacity mode (2^20, a 10 s cap) on the published-suite-like instances\n\n");
        capacity_table();
    }
    if (traces) {
        std::printf("\n## Real-trace-shaped families, default options\n\n");
        traces_table(defaults, true);
    }
    if (traces && traces_budget) {
        SolverOptions budget = defaults;
        budget.time_budget_ms = 5000;
        budget.improve_passes = budget.improve_placements_per_buffer = budget.search_work_per_buffer = UINT64_MAX;
        std::printf("\n## Real-trace-shaped families, a 5 s budget (as harena-plan --budget-ms 5000)\n\n");
        traces_table(budget, false);
    }
    if (fresh) {
        std::printf("\n## Uniform random, 1,000 buffers, fresh seeds, default options\n\n");
        fresh_table(defaults);
    }
    return 0;
}
