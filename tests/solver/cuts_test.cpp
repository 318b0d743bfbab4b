// Horizontal cuts against brute force: on small packings, some of which
// fill every section exactly and some with room to spare, every subset of
// buffers is tried as S at every height.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "solver/detail/exact/cuts.h"
#include "solver/detail/common/prepared.h"
#include "solver_instances/instances.h"

namespace harena::detail {
namespace {

struct Instance {
    Prepared prepared;
    std::vector<uint32_t> part;  // every item
    uint64_t capacity = 0;
};

Instance make(const Problem &problem) {
    Instance in;
    in.prepared = prepare(problem);
    in.part.resize(in.prepared.items.size());
    std::iota(in.part.begin(), in.part.end(), 0);
    in.capacity = lower_bound(in.prepared);
    return in;
}

// Whether `s` (a subset, by bit) is a cut at h: in every section the items
// span, S holds at most h and the rest at most capacity - h, and neither is
// empty.
bool is_cut(const Instance &in, uint32_t s, uint64_t h) {
    const std::vector<Item> &items = in.prepared.items;
    if (s == 0 || s + 1 == (1u << items.size())) return false;
    uint32_t first = UINT32_MAX, last = 0;
    for (const Item &item : items) {
        first = std::min(first, item.begin);
        last = std::max(last, item.end);
    }
    for (uint32_t t = first; t < last; t++) {
        uint64_t in_s = 0, rest = 0;
        for (size_t k = 0; k < items.size(); k++) {
            if (items[k].begin <= t && t < items[k].end) ((s >> k & 1) != 0 ? in_s : rest) += items[k].size;
        }
        if (in_s > h || rest > in.capacity - h) return false;
    }
    return true;
}

// Subsets of one shape count, since buffers of one shape are
// interchangeable: a cut up to such swaps.
std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int> signature(const Instance &in,
                                                                  const std::vector<uint32_t> &below) {
    std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int> counts;
    for (uint32_t i : below) {
        const Item &item = in.prepared.items[i];
        counts[{item.begin, item.end, item.size}]++;
    }
    return counts;
}

std::vector<uint32_t> members(uint32_t s, size_t n) {
    std::vector<uint32_t> out;
    for (uint32_t k = 0; k < n; k++) {
        if ((s >> k & 1) != 0) out.push_back(k);
    }
    return out;
}

std::vector<Instance> small_packings() {
    std::vector<Instance> out;
    for (size_t n = 2; n <= 10; n++) {
        for (uint64_t seed = 1; seed <= 8; seed++) {
            out.push_back(make(instances::perfect_packing(n, seed)));
            out.push_back(make(instances::cut_square(n, seed, true)));
            out.push_back(make(instances::cut_square(n + 2, seed, false)));  // with room to spare
        }
    }
    return out;
}

TEST(Cuts, FindsEveryCutUpToInterchangeableBuffers) {
    int cuts = 0;
    for (const Instance &in : small_packings()) {
        const size_t n = in.part.size();
        std::set<uint64_t> heights;
        uint64_t work = 0;
        const std::vector<uint64_t> candidates = cut_heights(in.prepared.items, in.part, in.capacity, work);
        CutFinder finder(in.prepared.items, in.part, in.capacity);
        std::map<uint64_t, std::set<std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int>>> expected;
        // Heights are multiples of the sizes' unit (perfect packings: 256;
        // squares: 1024).
        const uint64_t unit = in.capacity % 1024 == 0 && in.capacity == (1u << 20) ? 1024 : 256;
        for (uint64_t h = unit; 2 * h <= in.capacity; h += unit) {
            for (uint32_t s = 1; s + 1 < (1u << n); s++) {
                if (is_cut(in, s, h)) expected[h].insert(signature(in, members(s, n)));
            }
        }
        for (const auto &[h, sets] : expected) {
            // Every cut height is a candidate.
            ASSERT_TRUE(std::binary_search(candidates.begin(), candidates.end(), h)) << n << " buffers, h " << h;
        }
        for (uint64_t h : candidates) {
            // Each cut found, made a nogood, leads to another, until all were
            // found once.
            std::vector<Nogood> nogoods;
            std::set<std::map<std::tuple<uint32_t, uint32_t, uint64_t>, int>> found;
            std::vector<uint32_t> below;
            for (;;) {
                CutFinder::Budget budget;
                budget.max_work = budget.max_nodes = UINT64_MAX;
                CutFinder::Outcome outcome = finder.find(h, nogoods, budget, below);
                ASSERT_NE(outcome, CutFinder::Outcome::OutOfWork);
                if (outcome == CutFinder::Outcome::None) break;
                uint32_t s = 0;
                for (uint32_t k : below)
                    s |= 1u << k;
                ASSERT_TRUE(is_cut(in, s, h)) << n << " buffers, h " << h;
                ASSERT_TRUE(found.insert(signature(in, below)).second) << "found twice";
                std::vector<uint32_t> rest;
                for (uint32_t k = 0; k < n; k++) {
                    if ((s >> k & 1) == 0) rest.push_back(k);
                }
                nogoods.push_back({below, rest});
                cuts++;
            }
            EXPECT_EQ(found, expected[h]) << n << " buffers, h " << h;
        }
    }
    EXPECT_GT(cuts, 100);  // the test tests something
}

TEST(Cuts, NogoodsOnPartOfTheBuffersRuleOutEveryCutThatMatches) {
    // A nogood on some buffers only rules out every cut that has them so.
    for (const Instance &in : small_packings()) {
        uint64_t work = 0;
        CutFinder finder(in.prepared.items, in.part, in.capacity);
        for (uint64_t h : cut_heights(in.prepared.items, in.part, in.capacity, work)) {
            std::vector<uint32_t> below;
            CutFinder::Budget budget;
            budget.max_work = budget.max_nodes = UINT64_MAX;
            if (finder.find(h, {}, budget, below) != CutFinder::Outcome::Found) continue;
            Nogood nogood{{below.front()}, {}};
            for (uint32_t k = 0; k < in.part.size(); k++) {
                if (!std::binary_search(below.begin(), below.end(), k)) {
                    nogood.out.push_back(k);
                    break;
                }
            }
            std::vector<uint32_t> other;
            CutFinder::Outcome outcome = finder.find(h, {nogood}, budget, other);
            ASSERT_NE(outcome, CutFinder::Outcome::OutOfWork);
            if (outcome == CutFinder::Outcome::Found) {
                const bool has_in = std::binary_search(other.begin(), other.end(), nogood.in[0]);
                const bool has_out = !nogood.out.empty() && std::binary_search(other.begin(), other.end(), nogood.out[0]);
                EXPECT_FALSE(has_in && (nogood.out.empty() || !has_out));
            }
        }
    }
}

TEST(Cuts, StopsAtItsBudget) {
    Instance in = make(instances::perfect_packing(200, 3));
    uint64_t work = 0;
    std::vector<uint64_t> heights = cut_heights(in.prepared.items, in.part, in.capacity, work);
    ASSERT_FALSE(heights.empty());
    EXPECT_GT(work, 0u);
    CutFinder finder(in.prepared.items, in.part, in.capacity);
    std::vector<uint32_t> below;
    CutFinder::Budget budget;
    budget.max_work = UINT64_MAX;
    budget.max_nodes = 1;
    EXPECT_EQ(finder.find(heights[0], {}, budget, below), CutFinder::Outcome::OutOfWork);
    EXPECT_TRUE(below.empty());
}

}  // namespace
}  // namespace harena::detail
