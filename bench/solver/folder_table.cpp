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

std::vector<fs::path> csv_files(const std::string &folder) {
    std::vector<fs::path> files;
    for (const fs::directory_entry &e : fs::recursive_directory_iterator(folder)) {
        if (e.is_regular_file() && e.path().extension() == ".csv") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
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
                "mode (harena-plan --capacity's default budget) with its CPU time. CPU s: one solve, one core.\n\n",
                folder.c_str());
    std::printf("| file | buffers | lower bound | arena | ratio | CPU s | same bytes | capacity | default fits | "
                "capacity mode fits | capacity CPU s |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---|---:|---|---|---:|\n");
    int status = 0;
    for (const fs::path &file : csv_files(folder)) {
        std::ifstream in(file);
        Problem problem;
        try {
            problem = read_problem_csv(in, file.string());
        } catch (const InputError &e) {
            std::fprintf(stderr, "%s\n", e.what());
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
        const uint64_t capacity = capacity_in_name(file.filename().string());
        if (capacity == 0) {
            std::printf(" | | | |\n");
        } else {
            double capacity_seconds = 0;
            std::string capacity_csv;
            const Plan fit = solve_checked(problem, capacity_options(capacity), capacity_seconds, capacity_csv);
            std::printf(" %llu | %s | %s | %.3f |\n", (unsigned long long)capacity,
                        plan.arena_bytes <= capacity ? "yes" : "no", fit.arena_bytes <= capacity ? "yes" : "no",
                        capacity_seconds);
        }
        std::fflush(stdout);
    }
    return status;
}

}  // namespace harena::bench
