// The greedy passes' order: a lowest-first pass that falls behind its pace
// (LowestFirstLimits::pace) gives up, and first fit runs at once, before the
// next lowest-first pass; its plan is then the bar, or the answer where it
// reaches the goal. Plans stay valid and deterministic, and never worse
// than first fit's.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "solver/solver.h"
#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena {
namespace {

using testing::solve_checked;

// One buffer of 1 byte alive from step 0 to 65, and 64 buffers of 5-11
// bytes, one per step from 1. In order of first use the long one goes first
// and every short one comes up stale once before any is placed (64 checks
// that place nothing: behind a pace of 8 checks per buffer at its first
// check); largest first places the short ones first.
Problem long_under_shorts() {
    Problem problem{{{"long", 0, 65, 1, 1}}};
    for (int64_t t = 1; t <= 64; t++)
        problem.buffers.push_back({"s" + std::to_string(t), t, t + 1, uint64_t(5 + t % 7), 1});
    return problem;
}

// Greedy passes only: lowest first in order of first use, then largest
// first (no bias), then first fit; `work_per_buffer` the budget and pace
// of each lowest-first pass.
SolverOptions greedy_options(uint64_t work_per_buffer) {
    SolverOptions options;
    options.lowest_first_orders = {};
    options.lowest_first_plain_orders = {Order::BeginAsc, Order::SizeDesc};
    options.first_fit_orders = {Order::SizeClassDesc};
    options.lowest_first_work_per_buffer = work_per_buffer;
    options.improve_passes = 0;
    options.search_work_per_buffer = 0;
    return options;
}

TEST(GreedyPace, APassBehindItsPaceHandsOverToFirstFitAtOnce) {
    const Problem problem = long_under_shorts();
    // Any plan within the capacity will do: the first to reach it ends the
    // greedy passes.
    SolverOptions on_pace = greedy_options(128);
    on_pace.capacity = 4 * lower_bound(problem);
    // With 128 checks per buffer the first pass keeps its pace (the first
    // check comes after its 129 checks), and its plan, the long buffer under
    // the short ones (arena 1 + 11), fits.
    const Plan completed = solve_checked(problem, on_pace);
    EXPECT_EQ(completed.method, "lowest-first begin-asc unbiased");
    EXPECT_EQ(completed.arena_bytes, 12u);
    // With 8, it falls behind at its first check and first fit runs next:
    // its plan fits too, so the second lowest-first pass never runs.
    SolverOptions behind = on_pace;
    behind.lowest_first_work_per_buffer = 8;
    const Plan handed_over = solve_checked(problem, behind);
    EXPECT_EQ(handed_over.method, "first-fit size-class-desc");
    EXPECT_LE(handed_over.arena_bytes, behind.capacity);
}

// Small problems of several shapes, from random lifetimes to nested
// forward-backward ones.
Problem problem_number(int k) {
    std::mt19937_64 rng(uint64_t(k) * 104729 + 5);
    switch (k % 4) {
    case 0:
        return testing::random_problem(rng, 20 + size_t(k % 31));
    case 1:
        return instances::uniform_random(300 + size_t(k % 7) * 50, uint64_t(k));
    case 2:
        return instances::forward_backward(400 + size_t(k % 5) * 300, uint64_t(k));
    default:
        return instances::cut_square(60 + size_t(k % 23), uint64_t(k), false);
    }
}

TEST(GreedyPace, PlansAreValidDeterministicAndNoWorseThanFirstFitAtAnyPace) {
    SolverOptions first_fit_only = greedy_options(0);
    first_fit_only.good_enough_ratio = 1.0;
    // Problems where lowest first makes the plan at 128 checks per buffer and
    // first fit at 2 (its passes behind their pace there): the test covers
    // the hand-over.
    int handed_over = 0;
    for (int k = 0; k < 60; k++) {
        SCOPED_TRACE("problem " + std::to_string(k));
        const Problem problem = problem_number(k);
        const uint64_t first_fit_arena = solve_checked(problem, first_fit_only).arena_bytes;
        std::string method_at_2;
        for (uint64_t work_per_buffer : {1, 2, 4, 8, 16, 128}) {
            SCOPED_TRACE("work per buffer " + std::to_string(work_per_buffer));
            SolverOptions options = greedy_options(work_per_buffer);
            options.good_enough_ratio = 1.0;  // so every pass that can runs
            options.lowest_first_orders = {Order::BeginAsc, Order::SizeDesc};
            options.lowest_first_plain_orders = {Order::AreaDesc, Order::BeginAsc, Order::PressureDesc};
            const Plan plan = solve_checked(problem, options);
            EXPECT_LE(plan.arena_bytes, first_fit_arena);
            EXPECT_EQ(solve(problem, options).offsets, plan.offsets);
            if (work_per_buffer == 2) method_at_2 = plan.method;
            handed_over += work_per_buffer == 128 && plan.method.rfind("lowest-first", 0) == 0 &&
                           method_at_2.rfind("first-fit", 0) == 0;
        }
        if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(handed_over, 30);
}

}  // namespace
}  // namespace harena
