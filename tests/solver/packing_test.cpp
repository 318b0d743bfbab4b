// Perfectly packable problems (a rectangle cut into buffers, so the lower
// bound is the optimum): the default budget reaches the optimum on a clear
// majority.
#include <gtest/gtest.h>

#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena {
namespace {

TEST(SolverPacking, ReachesOptimumOnMostPerfectPackings) {
    int optimal = 0, total = 0;
    for (size_t n : {50, 100, 150}) {
        for (uint64_t seed = 1; seed <= 10; seed++) {
            Problem p = instances::perfect_packing(n, seed);
            Plan plan = testing::solve_checked(p);
            optimal += plan.arena_bytes == plan.lower_bound;
            total++;
        }
    }
    // Measured: 28 of 30. Most of the rest are within a few percent.
    EXPECT_GE(optimal, total * 3 / 4) << optimal << " of " << total << " optimal";
}

TEST(SolverPacking, GeneratorIsPerfect) {
    for (size_t n : {1, 2, 10, 300}) {
        Problem p = instances::perfect_packing(n, 9);
        EXPECT_EQ(p.buffers.size(), n);
        // W bytes live at every step: the bound is the rectangle's width.
        uint64_t width = p.buffers.empty() ? 0 : lower_bound(p);
        int64_t steps = 0;
        uint64_t area = 0;
        for (const Buffer &b : p.buffers) {
            steps = std::max(steps, b.end);
            area += b.size * uint64_t(b.end - b.begin);
        }
        EXPECT_EQ(area, width * uint64_t(steps));
    }
}

}  // namespace
}  // namespace harena
