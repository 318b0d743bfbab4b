// The tables of harena-solver-bench (solver_bench.cpp says what each
// option prints) and the measurement behind them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "solver/problem.h"
#include "solver/solver.h"

namespace harena::bench {

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
// wall-clock cap cut it short; only the time varies), validates the plan
// (exits on an invalid one) and records the median CPU time in ms.
Plan measure(const Problem &problem, const SolverOptions &options, int repeats, Stats &stats);

struct Family {
    const char *name;
    std::function<Problem(size_t, uint64_t)> make;
    std::vector<size_t> sizes;
};

// Each family at each size: time and ratio, over several seeds.
void families_table(const std::vector<Family> &families, bool quick, const SolverOptions &options);

// Packings, whose lower bound is the optimum: how many reach it, and how
// long that takes.
void packings_table(const std::vector<Family> &families, int seeds,
                    const std::function<SolverOptions(size_t)> &options_for, double within_ms);

// Eleven instances shaped like the published hard suite (capacity 2^20, a
// quarter of the pieces dropped, and about its sizes once they are: each
// square is cut into a third more pieces), one line each.
void suite_table(const std::function<SolverOptions(size_t)> &options_for);

// Capacity mode on the same instances, as harena-plan --capacity 2^20 runs
// it (capacity_options): which fit, and how long that takes.
void capacity_table();

// The instances of the published-suite-like table, k in 0-10.
Problem suite_instance(size_t k);

// Uniform random at 1,000 buffers on seeds 1001-1100.
void fresh_table(const SolverOptions &options);

// The real-trace-shaped families, and with `million` the training family at
// 1,000,000 buffers.
void traces_table(const SolverOptions &options, bool million);

}  // namespace harena::bench
