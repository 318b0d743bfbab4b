#include "folder_table.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "solver/csv.h"
#include "solver/problem.h"
#include "solver/solver.h"
#include "solver/validator.h"

namespace harena::bench {

namespace {

namespace fs = std::filesystem;

double cpu_seconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// The capacity in a name like "A.1048576.csv", 0 where there is none.
uint64_t capacity_in_name(const std::string &name) {
    const size_t end = name.rfind('.');
    const size_t begin = end == std::string::npos ? end : name.rfind('.', end - 1);
    if (begin == std::string::npos || end == begin + 1) return 0;
    const std::string digits = name.substr(begin + 1, end - begin - 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return 0;
    return digits.size() <= 19 ? std::strtoull(digits.c_str(), nullptr, 10) : 0;
}

// Solves and validates (an invalid plan ends the process); `seconds` gets
// the CPU time of the solve and `csv` the plan as harena-plan writes it.
Plan solve_checked(const Problem &problem, const SolverOptions &options, double &seconds, std::string &csv) {
    const double start = cpu_seconds();
    Plan plan = solve(problem, options);
    seconds = cpu_seconds() - start;
    const Validation v = validate(problem, plan);
    if (!v.ok) {
        std::fprintf(stderr, "invalid plan: %s\n", v.error.c_str());
        std::exit(1);
    }
    std::ostringstream out;
    write_plan_csv(out, problem, plan);
    csv = out.str();
    return plan;
}

// Every file under `folder` whose name ends in `suffix`, sorted.
std::vector<fs::path> files_ending(const std::string &folder, const std::string &suffix) {
    std::vector<fs::path> files;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(folder)) {
        const std::string name = e.path().filename().string();
        const bool match = name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
        if (e.is_regular_file() && match) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The arena of the plan a report holds: the largest offset + size over its
// rows (columns found by the header), 0 where it has no offset column.
uint64_t report_arena(const fs::path &file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header;
    for (std::stringstream cells(line); std::getline(cells, line, ',');)
        header.push_back(line);
    const auto column = [&](const char *name) { return size_t(std::find(header.begin(), header.end(), name) - header.begin()); };
    const size_t size_at = column("size"), offset_at = column("offset");
    uint64_t arena = 0;
    while (offset_at < header.size() && std::getline(in, line)) {
        std::vector<std::string> cells;
        for (std::stringstream row(line); std::getline(row, line, ',');)
            cells.push_back(line);
        if (cells.size() != header.size()) continue;
        arena = std::max<uint64_t>(arena, std::strtoull(cells[offset_at].c_str(), nullptr, 10) +
                                              std::strtoull(cells[size_at].c_str(), nullptr, 10));
    }
    return arena;
}

// As harena-plan --budget-ms 5000: the wall-clock cap decides when to stop.
SolverOptions five_second_budget() {
    SolverOptions options;
    options.improve_passes = options.improve_placements_per_buffer = options.search_work_per_buffer = UINT64_MAX;
    options.time_budget_ms = 5000;
    return options;
}

bool read_csv(const fs::path &file, Problem &problem) {
    std::ifstream in(file);
    try {
        problem = read_problem_csv(in, file.string());
        return true;
    } catch (const InputError &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return false;
    }
}

// The capacity columns of a file named X.<capacity>.csv, or the 5 s budget's
// for the others.
void capacity_or_budget_columns(const fs::path &file, const Problem &problem, const Plan &plan) {
    double seconds = 0;
    std::string csv;
    const uint64_t capacity = capacity_in_name(file.filename().string());
    if (capacity == 0) {
        const Plan budget = solve_checked(problem, five_second_budget(), seconds, csv);
        std::printf(" | | | | %.6f | %.3f |\n", budget.ratio(), seconds);
        return;
    }
    const Plan fit = solve_checked(problem, capacity_options(capacity), seconds, csv);
    std::printf(" %llu | %s | %s | %.3f | | |\n", (unsigned long long)capacity,
                plan.arena_bytes <= capacity ? "yes" : "no", fit.arena_bytes <= capacity ? "yes" : "no", seconds);
}

}  // namespace

std::string default_traces_folder() {
    if (const char *env = std::getenv("HARENA_TRACES")) return env;
    return HARENA_REPO_ROOT "/../shared/traces";
}

int folder_table(const std::string &folder) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
        std::fprintf(stderr, "harena-solver-bench: %s is not a folder\n", folder.c_str());
        return 1;
    }
    std::printf("Every *.csv under %s, default options, each planned twice (same bytes: the two plans' CSV are\n"
                "identical); capacity: from a name X.<capacity>.csv, whether the default plan fits it, and capacity\n"
                "mode (harena-plan --capacity's default budget) with its CPU time; the other files also with a 5 s\n"
                "budget (as harena-plan --budget-ms 5000). CPU s: one solve, one core.\n\n",
                folder.c_str());
    std::printf("| file | buffers | lower bound | arena | ratio | CPU s | same bytes | capacity | default fits | "
                "capacity mode fits | capacity CPU s | 5 s budget ratio | 5 s budget CPU s |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---|---:|---|---|---:|---:|---:|\n");
    int status = 0;
    for (const fs::path &file : files_ending(folder, ".csv")) {
        Problem problem;
        if (!read_csv(file, problem)) {
            status = 1;
            continue;
        }
        double seconds = 0, again_seconds = 0;
        std::string csv, again_csv;
        const Plan plan = solve_checked(problem, SolverOptions{}, seconds, csv);
        solve_checked(problem, SolverOptions{}, again_seconds, again_csv);
        const bool same = csv == again_csv;
        status |= same ? 0 : 1;
        const std::string name = fs::relative(file, folder).string();
        std::printf("| %s | %zu | %llu | %llu | %.6f | %.3f | %s |", name.c_str(), problem.buffers.size(),
                    (unsigned long long)plan.lower_bound, (unsigned long long)plan.arena_bytes, plan.ratio(),
                    std::min(seconds, again_seconds), same ? "yes" : "NO");
        capacity_or_budget_columns(file, problem, plan);
        std::fflush(stdout);
    }
    return status;
}

int plans_table(const std::string &folder) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) {
        std::fprintf(stderr, "harena-solver-bench: %s is not a folder\n", folder.c_str());
        return 1;
    }
    std::printf("Every pipeline plan report (*.arena.csv) under %s, planned again with the default options;\n"
                "those above the lower bound, with the ratio of the plan the report holds:\n\n",
                folder.c_str());
    size_t files = 0, at_bound = 0, not_larger = 0, buffers = 0, most_buffers = 0;
    double worst_ratio = 1, most_seconds = 0;
    int status = 0;
    for (const fs::path &file : files_ending(folder, ".arena.csv")) {
        Problem problem;
        if (!read_csv(file, problem)) {
            status = 1;
            continue;
        }
        double seconds = 0;
        std::string csv;
        const Plan plan = solve_checked(problem, SolverOptions{}, seconds, csv);
        files++;
        buffers += problem.buffers.size();
        most_buffers = std::max(most_buffers, problem.buffers.size());
        most_seconds = std::max(most_seconds, seconds);
        worst_ratio = std::max(worst_ratio, plan.ratio());
        at_bound += plan.arena_bytes == plan.lower_bound;
        const uint64_t reported = report_arena(file);
        not_larger += plan.arena_bytes <= reported;
        if (plan.arena_bytes != plan.lower_bound) {
            std::printf("- %s: %.6f of the bound; the report's own plan %.6f\n", fs::relative(file, folder).c_str(),
                        plan.ratio(), double(reported) / double(plan.lower_bound));
        }
    }
    std::printf("\n| plans | buffers (most in one) | at the lower bound | arena <= the report's | worst ratio | most CPU ms |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|\n");
    std::printf("| %zu | %zu (%zu) | %zu | %zu | %.6f | %.3f |\n", files, buffers, most_buffers, at_bound, not_larger,
                worst_ratio, most_seconds * 1e3);
    return status;
}

}  // namespace harena::bench
