// harena-plan: reads a problem CSV (id,lower,upper,size[,alignment]), plans
// it, checks the plan with the independent validator and prints a summary;
// optionally writes the plan as CSV and as an SVG drawing. Outputs are
// written only once everything succeeded, each through a temporary file
// renamed into place, so a failed run never leaves a partial or stale plan.
//
// Exit status: 0 success, 1 bad input or unwritable output, 2 bad usage,
// 3 the plan failed validation (a solver bug), 4 no plan within --capacity
// was found within the budget (nothing is written).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "solver/csv.h"
#include "solver/solver.h"
#include "solver/svg.h"
#include "solver/validator.h"

namespace {

const std::string kUsage = std::string() +
                           "usage: harena-plan problem.csv [-o plan.csv] [--svg plan.svg] [--budget-ms N] [--search-nodes N]\n"
                           "                   [--capacity N]\n"
                           "  problem.csv     id,lower,upper,size[,alignment] with half-open lifetimes\n"
                           "                  [lower, upper); alignment is 1 where the column is absent\n"
                           "  -o plan.csv     write the plan: the problem's columns plus offset\n"
                           "  --svg plan.svg  draw the plan\n"
                           "  --budget-ms N   improve the plan for up to N milliseconds of wall-clock time\n"
                           "                  instead of the default fixed work budget. The only option\n"
                           "                  that makes the plan depend on time: it then varies with the\n"
                           "                  machine and its load (it is never worse than with a smaller N\n"
                           "                  on the same machine). Without it the plan is a function of\n"
                           "                  the input and the options alone, the same bytes on any machine\n"
                           "  --search-nodes N  let the exact search try up to N placements: more search,\n"
                           "                  still the same plan on any machine\n"
                           "  --capacity N    find any plan whose arena is at most N bytes (MiniMalloc's\n"
                           "                  capacity mode), searching for up to --search-nodes or\n"
                           "                  --budget-ms, by default " +
                           std::to_string(harena::capacity_options(1).search_work_per_buffer) +
                           " units of work per buffer (a count:\n"
                           "                  the same answer on any machine); fails with exit status 4\n"
                           "                  if none was found\n";

struct Args {
    std::string problem, plan_csv, plan_svg;
    double budget_ms = -1;      // < 0: the solver's default budget
    uint64_t search_nodes = 0;  // 0: the solver's default budget
    uint64_t capacity = 0;      // 0: minimise the arena
};

[[noreturn]] void usage_error(const std::string &what) {
    std::cerr << "harena-plan: " << what << "\n"
              << kUsage;
    std::exit(2);
}

Args parse(int argc, char **argv) {
    Args args;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            std::exit(0);
        } else if (arg == "-o") {
            args.plan_csv = value();
        } else if (arg == "--svg") {
            args.plan_svg = value();
        } else if (arg == "--budget-ms") {
            std::string v = value();
            char *end = nullptr;
            args.budget_ms = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !(args.budget_ms > 0)) usage_error("--budget-ms needs a positive number");
        } else if (arg == "--search-nodes") {
            std::string v = value();
            char *end = nullptr;
            unsigned long long nodes = std::strtoull(v.c_str(), &end, 10);
            if (v.empty() || v[0] == '-' || *end != '\0' || nodes == 0) usage_error("--search-nodes needs a positive integer");
            args.search_nodes = nodes;
        } else if (arg == "--capacity") {
            std::string v = value();
            char *end = nullptr;
            unsigned long long bytes = std::strtoull(v.c_str(), &end, 10);
            if (v.empty() || v[0] == '-' || *end != '\0' || bytes == 0) usage_error("--capacity needs a positive number of bytes");
            args.capacity = bytes;
        } else if (!arg.empty() && arg[0] == '-') {
            usage_error("unknown option " + arg);
        } else if (args.problem.empty()) {
            args.problem = arg;
        } else {
            usage_error("more than one problem file");
        }
    }
    if (args.problem.empty()) usage_error("no problem file");
    return args;
}

// Writes each (path, text) with a non-empty path: all to temporary files
// first, then renamed into place, so that a failure leaves none written.
bool write_files(const std::vector<std::pair<std::string, std::string>> &files) {
    std::vector<std::string> temps;
    bool ok = true;
    for (const auto &[path, text] : files) {
        if (path.empty()) continue;
        temps.push_back(path + ".tmp");
        std::ofstream out(temps.back(), std::ios::binary);
        out << text;
        out.flush();
        if (!out) {
            std::cerr << "harena-plan: cannot write " << path << "\n";
            ok = false;
            break;
        }
    }
    size_t k = 0;
    for (const auto &[path, text] : files) {
        if (path.empty() || k >= temps.size()) continue;
        const std::string &temp = temps[k++];
        if (ok && std::rename(temp.c_str(), path.c_str()) != 0) {
            std::cerr << "harena-plan: cannot write " << path << "\n";
            ok = false;
        }
        if (!ok) std::remove(temp.c_str());
    }
    return ok;
}

// The solver's options for the command line's budget and capacity.
harena::SolverOptions options_of(Args &args) {
    // A capacity is a search for a fit: it gets more search by default.
    harena::SolverOptions options = args.capacity > 0 ? harena::capacity_options(args.capacity) : harena::SolverOptions{};
    if (args.budget_ms > 0) {
        // Let the time cap, not the fixed budgets, decide when to stop.
        options.improve_passes = UINT64_MAX;
        options.improve_placements_per_buffer = UINT64_MAX;
        options.search_work_per_buffer = UINT64_MAX;
        options.time_budget_ms = args.budget_ms;
    }
    if (args.search_nodes > 0) {
        // The node count alone decides when the search stops.
        options.search_work_per_buffer = UINT64_MAX;
        options.search_node_limit = args.search_nodes;
    }
    return options;
}

void print_summary(const harena::Problem &problem, const harena::Plan &plan) {
    std::printf("buffers      %zu\n", problem.buffers.size());
    std::printf("arena bytes  %llu\n", (unsigned long long)plan.arena_bytes);
    std::printf("lower bound  %llu\n", (unsigned long long)plan.lower_bound);
    std::printf("ratio        %.6f\n", plan.ratio());
    std::printf("solve time   %.3f ms\n", plan.solve_seconds * 1e3);
    std::printf("method       %s\n", plan.method.c_str());
}

// Whether the plan fits --capacity (always, without one); says why not.
bool fits_capacity(const Args &args, const harena::Plan &plan) {
    if (args.capacity == 0 || plan.arena_bytes <= args.capacity) return true;
    std::cerr << "harena-plan: no plan within the capacity of " << args.capacity
              << " bytes was found within the budget (the best has " << plan.arena_bytes
              << " bytes; the lower bound is " << plan.lower_bound << ")"
              << (plan.lower_bound > args.capacity ? ": no plan can fit, the capacity is below the lower bound" :
                                                     ": give a larger --budget-ms or capacity")
              << "; nothing was written\n";
    return false;
}

// Reads, plans, validates and writes; the exit status.
int run(Args &args) {
    std::ifstream in(args.problem);
    if (!in) {
        std::cerr << "harena-plan: cannot open " << args.problem << "\n";
        return 1;
    }
    harena::Problem problem = harena::read_problem_csv(in, args.problem);
    harena::Plan plan = harena::solve(problem, options_of(args));
    harena::Validation validation = harena::validate(problem, plan);
    if (!validation.ok) {
        std::cerr << "harena-plan: internal error, the plan is invalid and was not written: " << validation.error << "\n";
        return 3;
    }
    print_summary(problem, plan);
    if (!fits_capacity(args, plan)) return 4;
    std::ostringstream csv;
    if (!args.plan_csv.empty()) harena::write_plan_csv(csv, problem, plan);
    std::string svg = args.plan_svg.empty() ? "" : harena::plan_svg(problem, plan, args.problem);
    return write_files({{args.plan_csv, csv.str()}, {args.plan_svg, svg}}) ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
    Args args = parse(argc, argv);
    try {
        return run(args);
    } catch (const harena::InputError &e) {
        std::cerr << "harena-plan: " << e.what() << "\n";
        return 1;
    }
}
