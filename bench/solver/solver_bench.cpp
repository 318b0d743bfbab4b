// harena-solver-bench: for each problem family and size, the solve time and
// the arena / lower-bound ratio; how many packings (where the lower bound is
// the optimum) reach it, and how long that takes. Every plan is validated.
//
// usage: harena-solver-bench [--quick] [--fresh] [--large] [--hard] [--traces] [--capacity] [--only]
//        harena-solver-bench --folder [DIR]
//        harena-solver-bench --plans DIR
//        harena-solver-bench --instance FAMILY N SEED [--default]
//        harena-solver-bench --write-traces DIR SEEDS
//   --folder only the published instances: every CSV file under DIR
//            (default $HARENA_TRACES, else ../shared/traces beside the
//            repository), one row each (folder_table.h), each planned twice
//            to check that the plan is the same bytes; exit status 1 if not.
//            These rows are the solver's evidence; the generated families
//            below are extra coverage. Files with no capacity in their
//            name are also planned with a 5 s budget
//   --plans  only the pipelines' plan reports (*.arena.csv) under DIR, a
//            build tree: planned again, how many reach the lower bound
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
//   --capacity  also capacity mode (capacity 2^20, harena-plan
//            --capacity's default budget) on the published-suite-like
//            instances
//   --write-traces  only write the real-trace-shaped instances as CSV files
//            (for regression_check.sh)
//   --instance  only one packing, with the long search of --hard (or the
//            default options with --default), one line: for quick checks.
//            FAMILY: perfect, cut, thinned or suite (N is then the letter's
//            index, 0-10, and SEED is ignored)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "folder_table.h"
#include "solver/solver.h"
#include "solver_instances/instances.h"
#include "tables.h"
#include "trace_families.h"

using namespace harena::bench;

namespace {

using harena::Plan;
using harena::Problem;
using harena::SolverOptions;

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
    }
    return "unknown";
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

void print_options(const SolverOptions &o) {
    std::printf(
        "lowest_first_orders %zu, lowest_first_plain_orders %zu, lowest_first_work_per_buffer %llu, "
        "lowest_first_total_work_per_buffer %llu, first_fit_orders %zu, slack_weight %g, "
        "improve_passes %llu, improve_placements_per_buffer %llu, search_max_buffers %zu, search_work_per_buffer "
        "%llu, search_node_limit %llu, good_enough_ratio %g, time_budget_ms %g\n\n",
        o.lowest_first_orders.size(), o.lowest_first_plain_orders.size(),
        (unsigned long long)o.lowest_first_work_per_buffer, (unsigned long long)o.lowest_first_total_work_per_buffer,
        o.first_fit_orders.size(), o.slack_weight, (unsigned long long)o.improve_passes,
        (unsigned long long)o.improve_placements_per_buffer, o.search_max_buffers,
        (unsigned long long)o.search_work_per_buffer, (unsigned long long)o.search_node_limit, o.good_enough_ratio,
        o.time_budget_ms);
}

// The packings, whose lower bound is the optimum, at the sizes of the hard
// tables.
std::vector<Family> packings() {
    namespace inst = harena::instances;
    const std::vector<size_t> hard_sizes = {150, 250, 350, 450};
    return {
        {"perfect packing", inst::perfect_packing, hard_sizes},
        {"cut square", [](size_t n, uint64_t seed) { return inst::cut_square(n, seed, true); }, hard_sizes},
        {"thinned cut square", [](size_t n, uint64_t seed) { return inst::cut_square(n, seed, false); }, hard_sizes},
    };
}

// The command line: which tables to print.
struct Args {
    bool quick = false, fresh = false, large = false, hard = false, traces = false, capacity = false,
         defaults_only = false, traces_budget = true, only = false;
    const char *instance = nullptr;
    std::optional<std::string> folder;  // --folder: only the folder's table
    std::optional<std::string> plans;   // --plans: only the plan reports' table
    size_t instance_n = 0;
    uint64_t instance_seed = 0;
};

// Parses the options into `args`; an exit status where the run ends here
// (--write-traces, or a usage error).
std::optional<int> parse(int argc, char **argv, Args &args) {
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--instance") == 0 && i + 3 < argc) {
            args.instance = argv[i + 1];
            args.instance_n = std::strtoull(argv[i + 2], nullptr, 10);
            args.instance_seed = std::strtoull(argv[i + 3], nullptr, 10);
            i += 3;
        } else if (std::strcmp(argv[i], "--write-traces") == 0 && i + 2 < argc) {
            return harena::bench::write_traces(argv[i + 1], std::atoi(argv[i + 2])) ? 0 : 1;
        } else if (std::strcmp(argv[i], "--folder") == 0) {
            const bool named = i + 1 < argc && std::strncmp(argv[i + 1], "--", 2) != 0;
            args.folder = named ? std::string(argv[++i]) : harena::bench::default_traces_folder();
        } else if (std::strcmp(argv[i], "--plans") == 0 && i + 1 < argc) {
            args.plans = argv[++i];
        } else if (std::strcmp(argv[i], "--capacity") == 0) {
            args.capacity = true;
        } else if (std::strcmp(argv[i], "--traces") == 0) {
            args.traces = true;
        } else if (std::strcmp(argv[i], "--traces-default") == 0) {
            args.traces = true;
            args.traces_budget = false;
        } else if (std::strcmp(argv[i], "--only") == 0) {
            args.only = true;
        } else if (std::strcmp(argv[i], "--default") == 0) {
            args.defaults_only = true;
        } else if (std::strcmp(argv[i], "--quick") == 0) {
            args.quick = true;
        } else if (std::strcmp(argv[i], "--fresh") == 0) {
            args.fresh = true;
        } else if (std::strcmp(argv[i], "--large") == 0) {
            args.large = true;
        } else if (std::strcmp(argv[i], "--hard") == 0) {
            args.hard = true;
        } else {
            std::fprintf(stderr,
                         "usage: harena-solver-bench [--quick] [--fresh] [--large] [--hard] [--traces|--traces-default]\n"
                         "                           [--capacity] [--only]\n"
                         "       harena-solver-bench --folder [DIR]\n"
                         "       harena-solver-bench --plans DIR\n"
                         "       harena-solver-bench --instance perfect|cut|thinned|suite N SEED [--default]\n"
                         "       harena-solver-bench --write-traces DIR SEEDS\n");
            return 2;
        }
    }
    return std::nullopt;
}

// About 6 s of this machine's CPU for the search at any size (a work unit
// takes about a nanosecond), and no wall-clock cap (other work on the
// machine would cut it short): runs are deterministic, and a solve's CPU
// time is its time to the optimum.
constexpr uint64_t kLongSearchWork = 6'000'000'000;

SolverOptions long_search(size_t n) {
    SolverOptions options;
    options.search_work_per_buffer = kLongSearchWork / n;
    options.time_budget_ms = 0;
    options.good_enough_ratio = 1.0;
    return options;
}

SolverOptions default_options(size_t) {
    return SolverOptions{};
}

void print_header(const Args &args) {
    std::printf("# harena-solver-bench%s%s%s%s%s%s\n\n", args.quick ? " --quick" : "", args.fresh ? " --fresh" : "",
                args.large ? " --large" : "", args.hard ? " --hard" : "",
                !args.traces ? "" : args.traces_budget ? " --traces" :
                                                         " --traces-default",
                args.only ? " --only" : "");
    std::printf("machine: %u hardware threads, %s\n", std::thread::hardware_concurrency(), cpu_model().c_str());
    std::printf("times: CPU time of the solving thread, in ms, per solve() call (one core); the median of 3 solves\n");
    std::printf("ratio: arena bytes / lower bound; at bound: plans whose arena equals the lower bound;\n");
    std::printf("within 0.01%%: plans within the default good_enough_ratio, where improvement stops\n\n");
}

// The families of the default and greedy tables, and the packings.
void family_tables(const Args &args, const SolverOptions &defaults) {
    namespace inst = harena::instances;
    const std::vector<size_t> sizes = {100, 1000, 10000, 100000};
    std::vector<size_t> program_sizes = {1000, 10000, 62185};
    if (args.large) program_sizes.push_back(1000000);
    const std::vector<Family> families = {
        {"uniform random", inst::uniform_random, sizes},
        {"pipeline", inst::pipeline, sizes},
        {"perfect packing", inst::perfect_packing, sizes},
        {"forward-backward", inst::forward_backward, program_sizes},
    };
    SolverOptions greedy_only;
    greedy_only.improve_passes = 0;
    greedy_only.search_work_per_buffer = 0;
    families_table(families, args.quick, defaults);
    std::printf("\n## Greedy passes only (improve_passes = 0, search_work_per_buffer = 0)\n\n");
    families_table(families, args.quick, greedy_only);
    std::printf("\n## Packings, default options\n\n");
    packings_table(packings(), args.quick ? 3 : 10, default_options, 5000);
}

void hard_tables(const Args &args) {
    std::printf("\n## Packings, a long search (search work %llu per instance: search_work_per_buffer %llu / buffers; no "
                "wall-clock cap; good_enough_ratio 1)\n\n",
                (unsigned long long)kLongSearchWork, (unsigned long long)kLongSearchWork);
    packings_table(packings(), args.quick ? 3 : 10, long_search, 5000);
    std::printf("\n## Like the published hard suite, a long search\n\n");
    suite_table(long_search);
}

void trace_tables(const Args &args, const SolverOptions &defaults) {
    std::printf("\n## Real-trace-shaped families, default options\n\n");
    traces_table(defaults, true);
    if (!args.traces_budget) return;
    SolverOptions budget = defaults;
    budget.time_budget_ms = 5000;
    budget.improve_passes = budget.improve_placements_per_buffer = budget.search_work_per_buffer = UINT64_MAX;
    std::printf("\n## Real-trace-shaped families, a 5 s budget (as harena-plan --budget-ms 5000)\n\n");
    traces_table(budget, false);
}

}  // namespace

int main(int argc, char **argv) {
    Args args;
    if (std::optional<int> status = parse(argc, argv, args)) return *status;
    if (args.instance != nullptr) {
        return one_instance(args.instance, args.instance_n, args.instance_seed,
                            args.defaults_only ? default_options : long_search);
    }
    if (args.folder) {
        std::printf("# harena-solver-bench --folder %s\n\n", args.folder->c_str());
        std::printf("machine: %u hardware threads, %s\n\n", std::thread::hardware_concurrency(), cpu_model().c_str());
        return harena::bench::folder_table(*args.folder);
    }
    if (args.plans) {
        std::printf("# harena-solver-bench --plans %s\n\n", args.plans->c_str());
        return harena::bench::plans_table(*args.plans);
    }
    print_header(args);
    const SolverOptions defaults;
    std::printf("## Default options\n\n");
    print_options(defaults);
    if (!args.only) family_tables(args, defaults);
    if (args.hard) hard_tables(args);
    if (args.capacity) {
        std::printf("\n## Capacity mode (2^20, harena-plan --capacity's budget) on the published-suite-like instances\n\n");
        capacity_table();
    }
    if (args.traces) trace_tables(args, defaults);
    if (args.fresh) {
        std::printf("\n## Uniform random, 1,000 buffers, fresh seeds, default options\n\n");
        fresh_table(defaults);
    }
    return 0;
}
