// The skyline segment tree, and the lowest-first and first-fit passes: carried
// on over a floor, ranked with biases, giving up at a bound.
#include <gtest/gtest.h>

#include <random>

#include "solver/detail/greedy/first_fit.h"
#include "solver/solver.h"
#include "solver/detail/greedy/lowest_first.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"
#include "solver/detail/greedy/skyline.h"
#include "solver/validator.h"
#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena::detail {
namespace {

TEST(Skyline, MatchesNaiveArray) {
    std::mt19937_64 rng(5);
    for (uint32_t sections : {1u, 2u, 7u, 64u, 100u}) {
        std::vector<uint64_t> naive(sections);
        for (uint64_t &h : naive)
            h = rng() % 50;
        Skyline skyline(naive);
        for (int k = 0; k < 300; k++) {
            uint32_t a = uint32_t(rng() % sections), b = uint32_t(rng() % sections);
            uint32_t begin = std::min(a, b), end = std::max(a, b) + 1;
            if (k % 2 == 0) {
                uint64_t to = rng() % 200;
                skyline.raise(begin, end, to);
                for (uint32_t s = begin; s < end; s++)
                    naive[s] = std::max(naive[s], to);
            } else {
                uint64_t expected = *std::max_element(naive.begin() + begin, naive.begin() + end);
                ASSERT_EQ(skyline.max(begin, end), expected) << sections << " sections, step " << k;
            }
        }
        EXPECT_EQ(skyline.heights(sections), naive);
    }
}

TEST(LowestFirst, CarriesOnAPlanFromAFloor) {
    // Re-placing the buffers that end above some height, on the tops of the
    // others, in the same order, gives back the same plan.
    Prepared prepared = prepare(instances::uniform_random(500, 3));
    std::vector<uint32_t> order = make_order(prepared, Order::PressureDesc, peak_pressure(prepared));
    std::vector<uint64_t> offsets;
    uint64_t arena = lowest_first(prepared, order, offsets);
    for (uint64_t height : {uint64_t(0), arena / 3, arena / 2, arena - 1}) {
        std::vector<uint64_t> floor(prepared.points, 0);
        std::vector<uint32_t> above;
        for (uint32_t i : order) {
            const Item &item = prepared.items[i];
            if (offsets[i] + item.size > height) {
                above.push_back(i);
            } else {
                for (uint32_t s = item.begin; s < item.end; s++)
                    floor[s] = std::max(floor[s], offsets[i] + item.size);
            }
        }
        std::vector<uint64_t> again = offsets;
        EXPECT_EQ(LowestFirst(prepared, above, 0, floor).run(again), arena) << "height " << height;
        EXPECT_EQ(again, offsets) << "height " << height;
    }
}

// The plan of a pass over all items, as a Plan of the problem they came from.
Plan plan_of(const Problem &problem, const Prepared &prepared, const std::vector<uint64_t> &offsets) {
    Plan plan;
    plan.offsets.assign(problem.buffers.size(), 0);
    for (size_t i = 0; i < prepared.items.size(); i++) {
        plan.offsets[prepared.items[i].index] = offsets[i];
        plan.arena_bytes = std::max(plan.arena_bytes, offsets[i] + prepared.items[i].size);
    }
    return plan;
}

TEST(LowestFirst, ANegativeBiasBringsABufferForward) {
    // Two buffers alive together: without bias the order decides the tie at
    // offset 0; a bias below the other buffer's size puts the second first.
    Prepared prepared = prepare({{{"a", 0, 2, 100, 1}, {"b", 0, 2, 200, 1}}});
    std::vector<uint64_t> offsets;
    EXPECT_EQ(lowest_first(prepared, {0, 1}, offsets), 300u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 100}));
    EXPECT_EQ(lowest_first(prepared, {0, 1}, offsets, {0, -1}), 300u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{200, 0}));
    // A positive bias makes a buffer wait as long as others can go lower
    // than its lowest offset plus the bias.
    EXPECT_EQ(lowest_first(prepared, {0, 1}, offsets, {150, 0}), 300u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{200, 0}));
    EXPECT_EQ(lowest_first(prepared, {0, 1}, offsets, {250, 0}), 300u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{200, 0}));
}

TEST(LowestFirst, AnyBiasGivesAValidPlan) {
    std::mt19937_64 rng(5);
    for (int k = 0; k < 200; k++) {
        Problem problem = testing::random_problem(rng, 1 + k % 80);
        Prepared prepared = prepare(problem);
        std::vector<uint32_t> order = make_order(prepared, Order::SizeDesc, peak_pressure(prepared));
        // Biases from none to the extremes the squeaky wheel can reach.
        std::vector<int64_t> bias(prepared.items.size());
        for (int64_t &b : bias) {
            switch (rng() % 4) {
            case 0:
                b = 0;
                break;
            case 1:
                b = int64_t(rng() % 100000) - 50000;
                break;
            case 2:
                b = INT64_MIN / 2;
                break;
            default:
                b = int64_t(1) << 62;
                break;
            }
        }
        std::vector<uint64_t> offsets;
        uint64_t arena = lowest_first(prepared, order, offsets, bias);
        Plan plan = plan_of(problem, prepared, offsets);
        EXPECT_EQ(plan.arena_bytes, arena);
        Validation v = validate(problem, plan);
        ASSERT_TRUE(v.ok) << "problem " << k << ": " << v.error;
    }
}

TEST(GreedyPasses, GiveUpOnlyWhenTheyCannotBeatTheBound) {
    Prepared prepared = prepare(instances::uniform_random(300, 2));
    const std::vector<uint64_t> pressure = peak_pressure(prepared);
    const std::vector<uint32_t> order = make_order(prepared, Order::SizeDesc, pressure);
    const std::vector<int64_t> bias = slack_bias(pressure, lower_bound(prepared), 1.0 / 16);
    std::vector<uint64_t> full, partial;
    const uint64_t lf = lowest_first(prepared, order, full, bias);
    LowestFirst pass(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0));
    partial.resize(prepared.items.size());
    EXPECT_EQ(pass.run(partial, bias, lf + 1), lf);
    EXPECT_EQ(pass.placed(), prepared.items.size());
    EXPECT_EQ(partial, full);
    EXPECT_GE(pass.run(partial, bias, lf / 2), lf / 2);
    EXPECT_LT(pass.placed(), prepared.items.size());

    GapIndex index(sections_of(prepared));
    const uint64_t ff = first_fit(prepared, index, order, full);
    EXPECT_EQ(first_fit(prepared, index, order, partial, ff + 1), ff);  // the index is cleared between passes
    EXPECT_EQ(partial, full);
}

TEST(GreedyPasses, FirstFitStopsAtTheFirstBufferThatReachesTheBound) {
    // Largest first: 200 bytes go first and already reach 150, so the pass
    // stops there instead of stacking the other 100 on top (300).
    Prepared prepared = prepare({{{"a", 0, 2, 100, 1}, {"b", 0, 2, 200, 1}}});
    GapIndex index(sections_of(prepared));
    std::vector<uint64_t> offsets;
    EXPECT_EQ(first_fit(prepared, index, {1, 0}, offsets), 300u);
    EXPECT_EQ(first_fit(prepared, index, {1, 0}, offsets, 150), 200u);
}

TEST(GreedyPasses, FirstFitFillsTheLowestHoleThatHoldsABuffer) {
    // a and c leave a hole of 100 bytes at [100, 200) during steps 2-4 under
    // b; d (80 bytes, steps 2-3) goes into it rather than on top.
    Prepared prepared = prepare({{{"a", 0, 6, 100, 1}, {"b", 0, 6, 100, 1}, {"c", 0, 2, 100, 1}, {"d", 2, 4, 80, 1}}});
    GapIndex index(sections_of(prepared));
    std::vector<uint64_t> offsets;
    // a at 0, c at 100, b at 200 (above c), then d into c's place.
    EXPECT_EQ(first_fit(prepared, index, {0, 2, 1, 3}, offsets), 300u);
    EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 200, 100, 100}));
}

TEST(SlackBias, IsTheWeightedRoomAtEachBuffersBusiestTime) {
    EXPECT_EQ(slack_bias({100, 40, 0}, 100, 0.5), (std::vector<int64_t>{0, 30, 50}));
    EXPECT_EQ(slack_bias({100, 40}, 100, 0), (std::vector<int64_t>{0, 0}));
}

}  // namespace
}  // namespace harena::detail
