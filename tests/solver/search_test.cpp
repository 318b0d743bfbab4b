// The exact search on its own: it must never call a feasible capacity
// infeasible (every pruning rule keeps some plan of each feasible problem),
// whatever its order, and its plans must fit.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "solver/detail/common/deadline.h"
#include "solver/solver.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"
#include "solver/detail/exact/search.h"
#include "solver_instances/instances.h"
#include "test_util.h"

namespace harena::detail {
namespace {

// Every order the solver uses, and each preorder in both canonical forms
// (buffers at one offset left to right, or in preorder), fixed or redrawn
// for each part.
std::vector<SearchOrder> all_orders(const Prepared &prepared) {
    std::vector<uint64_t> pressure = peak_pressure(prepared);
    std::vector<SearchOrder> orders;
    for (bool by_preorder : {false, true}) {
        for (bool fitting_first : {false, true}) {
            for (Order order : {Order::PressureDesc, Order::SizeDesc, Order::AreaDesc, Order::LengthDesc}) {
                orders.push_back({make_order(prepared, order, pressure), fitting_first, by_preorder});
            }
        }
        for (bool sections_first : {false, true})
            orders.push_back({search_preorder(prepared, pressure, sections_first), false, by_preorder});
    }
    // MiniMalloc's preorders, redrawn by every part the search splits off.
    for (Preorder key : {Preorder::TWA, Preorder::TAW, Preorder::WAT})
        orders.push_back({preorder_of(prepared, key, pressure), false, true, key});
    return orders;
}

SearchResult unbounded_search(const Prepared &prepared, const SearchOrder &order, uint64_t capacity) {
    return search(prepared, order, capacity, UINT64_MAX, UINT64_MAX, Deadline(0));
}

// A found plan must fit: checked by the independent validator.
void expect_valid(const Problem &problem, const Prepared &prepared, const SearchResult &r, uint64_t capacity) {
    harena::testing::expect_valid_offsets(problem, prepared, r.offsets, capacity);
}

struct Family {
    const char *name;
    Problem (*make)(size_t n, uint64_t seed);
};

Problem tiled_square(size_t n, uint64_t seed) {
    return instances::cut_square(n, seed, true);
}
Problem thinned_square(size_t n, uint64_t seed) {
    return instances::cut_square(n, seed, false);
}

void PrintTo(const Family &family, std::ostream *out) {
    *out << family.name;
}

class SearchPackings : public ::testing::TestWithParam<Family> {};

TEST_P(SearchPackings, FindsTheOptimumOfSmallPackingsInEveryOrder) {
    // Their optimum is the lower bound, so the search must find a plan there
    // in every order and both directions in time.
    for (size_t n = 2; n <= 13; n++) {
        for (uint64_t seed = 1; seed <= 6; seed++) {
            Problem problem = GetParam().make(n, seed);
            Prepared prepared = prepare(problem);
            const uint64_t bound = lower_bound(prepared);
            for (const SearchOrder &order : all_orders(prepared)) {
                SearchResult r = unbounded_search(prepared, order, bound);
                ASSERT_EQ(r.status, SearchStatus::Found) << n << " buffers, seed " << seed;
                expect_valid(problem, prepared, r, bound);
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Families, SearchPackings,
                         ::testing::Values(Family{"Guillotine", instances::perfect_packing},
                                           Family{"TiledSquare", tiled_square},
                                           Family{"ThinnedSquare", thinned_square}),
                         [](const ::testing::TestParamInfo<Family> &info) { return std::string(info.param.name); });

TEST(Search, DecidesEveryCapacityLikeBruteForce) {
    // Random tiny problems, some with interchangeable buffers (copies of one
    // another): found at the optimum, proven infeasible just below it.
    std::mt19937_64 rng(17);
    for (int k = 0; k < 250; k++) {
        Problem problem = testing::random_problem(rng, 2 + size_t(k % 6));
        if (k % 2 == 0) problem.buffers.push_back(problem.buffers[size_t(k) % problem.buffers.size()]);
        const uint64_t optimum = testing::brute_force_optimum(problem);
        Prepared prepared = prepare(problem);
        if (prepared.items.empty()) continue;
        for (const SearchOrder &order : all_orders(prepared)) {
            SearchResult at = unbounded_search(prepared, order, optimum);
            ASSERT_EQ(at.status, SearchStatus::Found) << "problem " << k;
            expect_valid(problem, prepared, at, optimum);
            ASSERT_EQ(unbounded_search(prepared, order, optimum - 1).status, SearchStatus::Infeasible) << "problem " << k;
        }
    }
}

TEST(Search, DecidesStacksOfOneLifetimeLikeBruteForce) {
    // Buffers of a few shared lifetimes and unequal sizes, which may rest on
    // one another in one order only, and sections that must be filled
    // exactly: found at the optimum, proven infeasible just below it.
    std::mt19937_64 rng(29);
    auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
    for (int k = 0; k < 300; k++) {
        const uint64_t alignment = k % 3 == 0 ? 4 : 1;
        std::vector<std::pair<int64_t, int64_t>> lifetimes;
        for (int l = 0; l < 3; l++) {
            int64_t begin = int64_t(pick(0, 4));
            lifetimes.push_back({begin, begin + int64_t(pick(1, 4))});
        }
        Problem problem;
        for (size_t n = 2 + size_t(k % 6); n > 0; n--) {
            auto [begin, end] = lifetimes[pick(0, 2)];
            // Sometimes not a multiple of the alignment, which rules out a swap.
            uint64_t size = alignment * pick(1, 4) + (pick(0, 5) == 0 ? 1 : 0);
            problem.buffers.push_back({"s" + std::to_string(n), begin, end, size, alignment});
        }
        const uint64_t optimum = testing::brute_force_optimum(problem);
        Prepared prepared = prepare(problem);
        for (const SearchOrder &order : all_orders(prepared)) {
            SearchResult at = unbounded_search(prepared, order, optimum);
            ASSERT_EQ(at.status, SearchStatus::Found) << "problem " << k;
            expect_valid(problem, prepared, at, optimum);
            ASSERT_EQ(unbounded_search(prepared, order, optimum - 1).status, SearchStatus::Infeasible) << "problem " << k;
        }
    }
}

TEST(Search, RedrawnPreordersDecideProblemsThatSplitLikeBruteForce) {
    // A few long buffers over short ones in a row, so that placing a long
    // one leaves parts that share no time and take a preorder of their own
    // (MiniMalloc's, redrawn from the bytes still unplaced): found at the
    // optimum, proven infeasible just below it.
    std::mt19937_64 rng(41);
    auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); };
    for (int k = 0; k < 200; k++) {
        Problem problem;
        const int64_t span = 3 + int64_t(pick(0, 5));
        for (int l = 0; l < 1 + k % 2; l++) {
            const int64_t begin = int64_t(pick(0, 2));
            problem.buffers.push_back({"long" + std::to_string(l), begin, span + begin, pick(1, 6), 1});
        }
        for (size_t n = 3 + size_t(k % 4); n > 0; n--) {
            const int64_t begin = int64_t(pick(0, uint64_t(span)));
            problem.buffers.push_back({"short" + std::to_string(n), begin, begin + int64_t(pick(1, 2)), pick(1, 6), 1});
        }
        const uint64_t optimum = testing::brute_force_optimum(problem);
        Prepared prepared = prepare(problem);
        const std::vector<uint64_t> pressure = peak_pressure(prepared);
        for (Preorder key : {Preorder::TWA, Preorder::TAW, Preorder::WAT}) {
            const SearchOrder order{preorder_of(prepared, key, pressure), false, true, key};
            SearchResult at = unbounded_search(prepared, order, optimum);
            ASSERT_EQ(at.status, SearchStatus::Found) << "problem " << k;
            expect_valid(problem, prepared, at, optimum);
            ASSERT_EQ(unbounded_search(prepared, order, optimum - 1).status, SearchStatus::Infeasible)
                << "problem " << k;
        }
    }
}

TEST(Search, GivesUpAtItsNodeLimitAndFindsTheSamePlanWithMore) {
    Problem problem = instances::cut_square(60, 4, true);
    Prepared prepared = prepare(problem);
    SearchOrder order = all_orders(prepared)[0];
    const uint64_t bound = lower_bound(prepared);
    SearchResult full = unbounded_search(prepared, order, bound);
    ASSERT_EQ(full.status, SearchStatus::Found);
    ASSERT_GT(full.nodes, 2u);
    SearchResult cut = search(prepared, order, bound, UINT64_MAX, full.nodes / 2, Deadline(0));
    EXPECT_EQ(cut.status, SearchStatus::GaveUp);
    EXPECT_LE(cut.nodes, full.nodes / 2);
    SearchResult more = search(prepared, order, bound, UINT64_MAX, full.nodes * 2, Deadline(0));
    EXPECT_EQ(more.offsets, full.offsets);
}

}  // namespace
}  // namespace harena::detail
