// Solving perfect packings by cuts: every plan checked by the validator.
#include <gtest/gtest.h>

#include "solver/detail/exact/decompose.h"
#include "solver/detail/common/prepared.h"
#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena::detail {
namespace {

DecomposeResult by_cuts(const Prepared &prepared, uint64_t capacity, uint64_t max_work = UINT64_MAX) {
    return solve_by_cuts(prepared, capacity, max_work, UINT64_MAX, Deadline(0));
}

void expect_valid(const Problem &problem, const Prepared &prepared, const DecomposeResult &r, uint64_t capacity) {
    harena::testing::expect_valid_offsets(problem, prepared, r.offsets, capacity);
}

// A tiling of a 3 x 3 square by five pieces around a centre, none of which
// a straight line separates: no cut in time or height, so it needs the
// search. Scaled by 256 in height.
Problem pinwheel(int64_t at = 0) {
    auto piece = [&](const char *id, int64_t begin, int64_t end, uint64_t low, uint64_t high) {
        return Buffer{id, at + begin, at + end, (high - low) * 256, 256};
    };
    return Problem{{piece("a", 0, 2, 0, 1), piece("b", 2, 3, 0, 2), piece("c", 1, 3, 2, 3), piece("d", 0, 1, 1, 3),
                    piece("e", 1, 2, 1, 2)}};
}

TEST(Decompose, RunsOnPackingsOnly) {
    EXPECT_TRUE(fills_exactly(prepare(instances::perfect_packing(50, 1)), 16 * 50 * 256 + 64 * 256));
    EXPECT_TRUE(fills_exactly(prepare(instances::cut_square(50, 1, true)), 1 << 20));
    EXPECT_FALSE(fills_exactly(prepare(instances::cut_square(50, 1, true)), (1 << 20) + 1));
    EXPECT_EQ(cut_work_per_buffer(prepare(instances::cut_square(50, 1, true)), 1 << 20), 800'000u);
    // With room to spare, but sizes in units of 1024 bytes.
    Prepared thinned = prepare(instances::cut_square(50, 1, false));
    EXPECT_FALSE(fills_exactly(thinned, 1 << 20));
    EXPECT_EQ(cut_work_per_buffer(thinned, 1 << 20), 200'000u);
    // Sizes of no common unit.
    for (const Problem &problem : {instances::uniform_random(50, 1), instances::pipeline(50, 1)}) {
        Prepared prepared = prepare(problem);
        EXPECT_FALSE(fills_exactly(prepared, lower_bound(prepared)));
        EXPECT_EQ(cut_work_per_buffer(prepared, lower_bound(prepared)), 0u);
    }
}

TEST(Decompose, SolvesPackingsWithValidPlans) {
    int found = 0, total = 0;
    for (size_t n : {1, 2, 5, 20, 60, 150}) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            for (const Problem &problem : {instances::perfect_packing(n, seed), instances::cut_square(n, seed, true)}) {
                Prepared prepared = prepare(problem);
                const uint64_t bound = lower_bound(prepared);
                ASSERT_TRUE(fills_exactly(prepared, bound));
                DecomposeResult r = by_cuts(prepared, bound, 100'000'000);
                total++;
                if (!r.found) continue;
                found++;
                expect_valid(problem, prepared, r, bound);
            }
        }
    }
    // Measured: all of them.
    EXPECT_GE(found, total - 2) << found << " of " << total;
}

TEST(Decompose, SolvesSomePackingsWithRoomToSpareWithValidPlans) {
    int found = 0;
    for (size_t n : {5, 20, 60, 150}) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            Problem problem = instances::cut_square(n, seed, false);
            Prepared prepared = prepare(problem);
            const uint64_t bound = lower_bound(prepared);
            DecomposeResult r = by_cuts(prepared, bound, 20'000'000);
            if (!r.found) continue;
            found++;
            expect_valid(problem, prepared, r, bound);
        }
    }
    EXPECT_GE(found, 6);
}

TEST(Decompose, SearchesPartsThatNoCutSplits) {
    // The pinwheel alone, and under a strip (a cut in height, then the
    // pinwheel's part goes to the search).
    Problem alone = pinwheel();
    Problem under = pinwheel();
    under.buffers.push_back({"strip", 0, 3, 512, 256});
    for (const Problem &problem : {alone, under}) {
        Prepared prepared = prepare(problem);
        const uint64_t bound = lower_bound(prepared);
        ASSERT_TRUE(fills_exactly(prepared, bound));
        DecomposeResult r = by_cuts(prepared, bound);
        ASSERT_TRUE(r.found);
        EXPECT_GT(r.nodes, 0u);
        expect_valid(problem, prepared, r, bound);
    }
}

TEST(Decompose, MoreBudgetFindsTheSamePlan) {
    // The same steps whatever the budget: a plan found with some budget is
    // found, the same, with more; none is found with too little.
    for (uint64_t seed = 1; seed <= 6; seed++) {
        Problem problem = instances::perfect_packing(120, seed);
        Prepared prepared = prepare(problem);
        const uint64_t bound = lower_bound(prepared);
        DecomposeResult full = by_cuts(prepared, bound);
        ASSERT_TRUE(full.found) << seed;
        for (uint64_t work = full.work / 8; work <= 2 * full.work; work *= 2) {
            DecomposeResult r = by_cuts(prepared, bound, work);
            if (work > full.work) {
                ASSERT_TRUE(r.found);
                EXPECT_EQ(r.offsets, full.offsets);
            } else if (2 * work <= full.work) {
                EXPECT_FALSE(r.found);
            }
        }
    }
}

}  // namespace
}  // namespace harena::detail
