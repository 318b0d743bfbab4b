// Randomized properties: every plan validates and respects the lower bound,
// on thousands of random problems of many shapes, some of 10,000 buffers.
#include <gtest/gtest.h>

#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena {
namespace {

using testing::random_problem;
using testing::solve_checked;

TEST(SolverProperties, ThousandsOfSmallProblems) {
    std::mt19937_64 rng(1);
    for (int k = 0; k < 2000; k++) {
        Problem p = random_problem(rng, 1 + k % 40);
        SCOPED_TRACE("instance " + std::to_string(k));
        solve_checked(p);
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(SolverProperties, MediumProblems) {
    std::mt19937_64 rng(2);
    for (int k = 0; k < 30; k++) {
        SCOPED_TRACE("instance " + std::to_string(k));
        solve_checked(random_problem(rng, 200 + 40 * k));
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(SolverProperties, LargeProblems) {
    // The improvement budget is cut: the properties hold for any budget, and
    // the default one is exercised by the smaller problems.
    SolverOptions quick;
    quick.improve_passes = 2;
    std::mt19937_64 rng(3);
    for (int k = 0; k < 4; k++) {
        SCOPED_TRACE("instance " + std::to_string(k));
        solve_checked(random_problem(rng, 10000), quick);
    }
    solve_checked(instances::uniform_random(10000, 1), quick);
    solve_checked(instances::pipeline(10000, 1), quick);
    solve_checked(instances::perfect_packing(10000, 1), quick);
}

TEST(SolverProperties, TinyBudgetsAndTimeCap) {
    std::mt19937_64 rng(4);
    SolverOptions capped;
    capped.time_budget_ms = 0.001;
    SolverOptions tiny;
    tiny.improve_passes = 1;
    tiny.search_work_per_buffer = 1;
    for (int k = 0; k < 200; k++) {
        Problem p = random_problem(rng, 1 + k);
        solve_checked(p, capped);
        solve_checked(p, tiny);
    }
}

}  // namespace
}  // namespace harena
