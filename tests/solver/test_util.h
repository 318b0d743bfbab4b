// Helpers shared by the solver tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "solver/detail/common/prepared.h"
#include "solver/problem.h"
#include "solver/solver.h"
#include "solver/validator.h"

namespace harena::testing {

// Solves, and fails the test unless the plan validates and respects the
// lower bound.
inline Plan solve_checked(const Problem &p, const SolverOptions &options = {}) {
    Plan plan = solve(p, options);
    Validation v = validate(p, plan);
    EXPECT_TRUE(v.ok) << v.error;
    EXPECT_GE(plan.arena_bytes, plan.lower_bound);
    return plan;
}

// Offsets indexed like prepared.items (what the search and the cuts return)
// must make a plan within `capacity`: checked by the independent validator.
inline void expect_valid_offsets(const Problem &problem, const detail::Prepared &prepared,
                                 const std::vector<uint64_t> &offsets, uint64_t capacity) {
    Plan plan;
    plan.offsets.assign(problem.buffers.size(), 0);
    for (size_t i = 0; i < prepared.items.size(); i++) {
        plan.offsets[prepared.items[i].index] = offsets[i];
        plan.arena_bytes = std::max(plan.arena_bytes, offsets[i] + prepared.items[i].size);
    }
    Validation v = validate(problem, plan);
    EXPECT_TRUE(v.ok) << v.error;
    EXPECT_LE(plan.arena_bytes, capacity);
}

// The smallest arena over all placement orders, each buffer going to the
// lowest aligned offset free of the buffers placed before it. Some order
// gives an optimal plan (take one and place its buffers by increasing
// offset: each lands no higher than before), so this is the optimum; it
// shares nothing with the solver. Only for a handful of buffers.
inline uint64_t brute_force_optimum(const Problem &p) {
    std::vector<size_t> order(p.buffers.size());
    std::iota(order.begin(), order.end(), 0);
    uint64_t best = UINT64_MAX;
    do {
        std::vector<uint64_t> offset(p.buffers.size());
        uint64_t arena = 0;
        for (size_t k = 0; k < order.size(); k++) {
            const Buffer &b = p.buffers[order[k]];
            uint64_t at = 0;
            for (bool moved = true; moved;) {
                moved = false;
                for (size_t m = 0; m < k; m++) {
                    const Buffer &o = p.buffers[order[m]];
                    uint64_t oo = offset[order[m]];
                    bool live_together = b.begin < o.end && o.begin < b.end;
                    if (live_together && b.size > 0 && o.size > 0 && at < oo + o.size && oo < at + b.size) {
                        at = (oo + o.size + b.alignment - 1) / b.alignment * b.alignment;
                        moved = true;
                    }
                }
            }
            offset[order[k]] = at;
            arena = std::max(arena, at + b.size);
        }
        best = std::min(best, arena);
    } while (std::next_permutation(order.begin(), order.end()));
    return p.buffers.empty() ? 0 : best;
}

// Random problems of many shapes for property tests.
inline Problem random_problem(std::mt19937_64 &rng, size_t n) {
    auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
    // Small problems may be dense (everything alive at once); large ones keep
    // a few hundred buffers alive at a time, as real programs do, since the
    // solver's time grows with n times the number alive together.
    int64_t horizon = n <= 2000 ? int64_t(pick(1, 2 * n + 2)) : int64_t(pick(n / 4, 2 * n));
    uint64_t max_length = pick(1, n <= 2000 ? uint64_t(horizon) : 100);
    uint64_t max_size = uint64_t(1) << pick(0, 30);
    bool mixed_alignment = pick(0, 1);
    uint64_t alignment = uint64_t(1) << pick(0, 10);
    int64_t shift = int64_t(pick(0, 2000)) - 1000;  // times may be negative
    Problem p;
    for (size_t i = 0; i < n; i++) {
        Buffer b;
        b.id = "r" + std::to_string(i);
        b.begin = int64_t(pick(0, uint64_t(horizon))) + shift;
        b.end = b.begin + int64_t(pick(1, max_length));
        b.size = pick(0, 9) == 0 ? 0 : pick(1, max_size);
        b.alignment = mixed_alignment ? uint64_t(1) << pick(0, 12) : alignment;
        p.buffers.push_back(b);
    }
    // Some buffers share a lifetime with another.
    for (size_t i = 1; i < n; i++) {
        if (pick(0, 7) == 0) {
            p.buffers[i].begin = p.buffers[i - 1].begin;
            p.buffers[i].end = p.buffers[i - 1].end;
        }
    }
    return p;
}

}  // namespace harena::testing
