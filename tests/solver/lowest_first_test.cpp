// The lowest-first pass against a naive one that recomputes every unplaced
// buffer's lowest offset at each step: the queue, its stale keys and the
// bundles of long-lived buffers must not change which buffer goes next. And
// its pace (LowestFirstLimits::pace): a pass that keeps it is unchanged, one
// that falls behind gives up at the check where it does.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "solver/solver.h"
#include "solver/detail/greedy/lowest_first.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"
#include "solver_instances/instances.h"

namespace harena::detail {
namespace {

// Places, at each step, the unplaced item with the smallest (lowest offset
// + bias, position in order), on the floor of sections [first, ...).
std::vector<uint64_t> naive_lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, uint32_t first,
                                         std::vector<uint64_t> heights, const std::vector<int64_t> &bias) {
    std::vector<uint64_t> offsets(prepared.items.size(), 0);
    std::vector<bool> placed(order.size(), false);
    for (size_t step = 0; step < order.size(); step++) {
        size_t best = order.size();
        __int128 best_rank = 0;
        uint64_t best_offset = 0;
        for (size_t k = 0; k < order.size(); k++) {
            if (placed[k]) continue;
            const Item &item = prepared.items[order[k]];
            uint64_t level = 0;
            for (uint32_t s = item.begin - first; s < item.end - first; s++)
                level = std::max(level, heights[s]);
            const uint64_t offset = align_up(level, item.alignment);
            const __int128 rank = __int128(offset) + (bias.empty() ? 0 : bias[order[k]]);
            if (best == order.size() || rank < best_rank) {
                best = k, best_rank = rank, best_offset = offset;
            }
        }
        placed[best] = true;
        const Item &item = prepared.items[order[best]];
        offsets[order[best]] = best_offset;
        for (uint32_t s = item.begin - first; s < item.end - first; s++)
            heights[s] = best_offset + item.size;
    }
    return offsets;
}

void expect_naive_plan(const Problem &problem, const std::vector<int64_t> &bias_range, uint64_t seed) {
    const Prepared prepared = prepare(problem);
    std::mt19937_64 rng(seed);
    std::vector<int64_t> bias(prepared.items.size(), 0);
    if (!bias_range.empty()) {
        for (int64_t &b : bias)
            b = bias_range[rng() % bias_range.size()];
    }
    for (Order order_kind : {Order::BeginAsc, Order::SizeDesc}) {
        SCOPED_TRACE(std::string("order ") + order_name(order_kind));
        const std::vector<uint32_t> order = make_order(prepared, order_kind, peak_pressure(prepared));
        std::vector<uint64_t> offsets;
        lowest_first(prepared, order, offsets, bias);
        EXPECT_EQ(offsets, naive_lowest_first(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0), bias));
    }
}

TEST(LowestFirst, PlacesLikeANaivePassOnTraces) {
    // Long-lived buffers beside short ones, alignments 64 and 4096.
    for (uint64_t seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        expect_naive_plan(instances::training_trace(400, seed, 2), {}, seed);
        expect_naive_plan(instances::graph_trace(400, seed), {}, seed);
        // Biases as the slack and the squeaky wheel set them: buffers of one
        // bundle then come up in another order than their positions.
        expect_naive_plan(instances::training_trace(400, seed, 2), {0, 0, 1 << 20, -(1 << 24), 12345}, seed);
    }
}

TEST(LowestFirst, PlacesLikeANaivePassWhereALongBufferRisesAboveItsBundle) {
    // l1 and l2 begin and end close together in a long program and share
    // its sections [1, 70); a tall buffer in [0, 1) puts l1's lowest offset
    // above theirs, so l1 must wait while l2 and short buffers go lower.
    Problem problem{{{"tall", 0, 1, 1000, 1}, {"l1", 0, 70, 10, 1}, {"l2", 1, 70, 10, 1}}};
    for (int64_t t = 0; t < 80; t++)
        problem.buffers.push_back({"s" + std::to_string(t), t, t + 1, uint64_t(t * 37 % 900 + 1), 1});
    expect_naive_plan(problem, {}, 1);
    expect_naive_plan(problem, {0, -100, 100}, 2);
}

TEST(LowestFirst, PlacesLikeANaivePassOnAFloor) {
    const Problem problem = instances::graph_trace(300, 7);
    const Prepared prepared = prepare(problem);
    const std::vector<uint32_t> order = make_order(prepared, Order::BeginAsc, peak_pressure(prepared));
    // The items alive within sections [first, first + floor.size()), on a
    // floor of random heights.
    std::mt19937_64 rng(7);
    const uint32_t first = prepared.points / 4, last = prepared.points * 3 / 4;
    std::vector<uint32_t> inside;
    for (uint32_t i : order) {
        if (prepared.items[i].begin >= first && prepared.items[i].end <= last) inside.push_back(i);
    }
    std::vector<uint64_t> floor(last - first);
    for (uint64_t &h : floor)
        h = rng() % 100000;
    std::vector<uint64_t> offsets(prepared.items.size(), 0);
    LowestFirst(prepared, inside, first, floor).run(offsets);
    const std::vector<uint64_t> naive = naive_lowest_first(prepared, inside, first, floor, {});
    for (uint32_t i : inside)
        EXPECT_EQ(offsets[i], naive[i]) << "item " << i;
}

// One buffer alive through all of `shorts` sections, first in BeginAsc order
// (it begins with the first short one and is larger), and a buffer of one
// section in each: once the long one is placed, every short one comes up stale once
// before any is placed, so the pass does `shorts` checks that place nothing.
Problem long_over_shorts(int64_t shorts) {
    Problem problem{{{"long", 0, shorts, 10, 1}}};
    for (int64_t t = 0; t < shorts; t++)
        problem.buffers.push_back({"s" + std::to_string(t), t, t + 1, uint64_t(t % 7 + 1), 1});
    return problem;
}

TEST(LowestFirst, PlacesLikeANaivePassWhileOnPace) {
    for (const Problem &problem : {long_over_shorts(64), instances::training_trace(400, 1, 2)}) {
        const Prepared prepared = prepare(problem);
        const std::vector<uint32_t> order = make_order(prepared, Order::BeginAsc, peak_pressure(prepared));
        const uint64_t n = prepared.items.size();
        std::vector<uint64_t> offsets(n, 0);
        LowestFirst pass(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0));
        pass.run(offsets, {}, UINT64_MAX, {UINT64_MAX, 128 * n});
        EXPECT_FALSE(pass.fell_behind());
        EXPECT_EQ(pass.placed(), n);
        EXPECT_EQ(offsets, naive_lowest_first(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0), {}));
    }
}

TEST(LowestFirst, GivesUpAtTheCheckWhereItFallsBehindItsPace) {
    const Prepared prepared = prepare(long_over_shorts(64));
    const std::vector<uint32_t> order = make_order(prepared, Order::BeginAsc, peak_pressure(prepared));
    const uint64_t n = prepared.items.size();  // 65: the whole pass takes 1 + 64 + 64 checks
    std::vector<uint64_t> offsets(n, 0);
    LowestFirst pass(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0));
    // A pace of 4 checks per buffer: at 260 / 32 = 8 checks only the long
    // buffer is placed, 1/65 of the items where 8/260 were due.
    EXPECT_EQ(pass.run(offsets, {}, UINT64_MAX, {UINT64_MAX, 4 * n}), UINT64_MAX);
    EXPECT_TRUE(pass.fell_behind());
    EXPECT_EQ(pass.work(), 4 * n / 32);
    EXPECT_EQ(pass.placed(), 1u);
    // At 48 per buffer the first check comes at 3120 / 32 = 97 checks, when
    // 32 buffers are placed where 2 were due, and the next after the end.
    pass.run(offsets, {}, UINT64_MAX, {UINT64_MAX, 48 * n});
    EXPECT_FALSE(pass.fell_behind());
    EXPECT_EQ(pass.work(), 1 + 64 + 64u);
    EXPECT_EQ(offsets, naive_lowest_first(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0), {}));
}

}  // namespace
}  // namespace harena::detail
