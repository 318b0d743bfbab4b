// The gap index against a naive scan of every placed buffer.
#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>

#include "solver/detail/greedy/gap_index.h"

namespace harena::detail {
namespace {

struct Placed {
    uint32_t begin, end;
    uint64_t offset, size;
};

// The lowest aligned offset free of every placed buffer alive during
// [begin, end): 0 or the aligned top of one of them, whichever is lowest
// and free.
uint64_t naive_lowest_fit(const std::vector<Placed> &placed, uint32_t begin, uint32_t end, uint64_t size,
                          uint64_t alignment) {
    std::vector<uint64_t> candidates = {0};
    for (const Placed &p : placed) {
        if (p.begin < end && begin < p.end) candidates.push_back((p.offset + p.size + alignment - 1) & ~(alignment - 1));
    }
    std::sort(candidates.begin(), candidates.end());
    for (uint64_t at : candidates) {
        bool free = true;
        for (const Placed &p : placed) {
            free &= !(p.begin < end && begin < p.end && p.offset < at + size && at < p.offset + p.size);
        }
        if (free) return at;
    }
    return UINT64_MAX;  // unreachable: the highest candidate is free
}

struct Shape {
    const char *name;
    uint32_t sections;
    uint32_t max_length;  // of a lifetime, in sections
    uint64_t max_size;
    bool mixed_alignment;
};

// Test listings name the shape, not its bytes.
void PrintTo(const Shape &value, std::ostream *out) {
    *out << value.name;
}

class GapIndexRandomPlacements : public ::testing::TestWithParam<Shape> {};

TEST_P(GapIndexRandomPlacements, MatchesNaiveScan) {
    const Shape &shape = GetParam();
    std::mt19937_64 rng(shape.sections * 7 + shape.max_length);
    GapIndex index(shape.sections);
    for (int round = 0; round < 3; round++) {
        std::vector<Placed> placed;
        for (int k = 0; k < 400; k++) {
            uint32_t begin = uint32_t(rng() % shape.sections);
            uint32_t end = std::min(shape.sections, begin + 1 + uint32_t(rng() % shape.max_length));
            uint64_t size = 1 + rng() % shape.max_size;
            uint64_t alignment = shape.mixed_alignment ? uint64_t(1) << (rng() % 6) : 1;
            uint64_t expected = naive_lowest_fit(placed, begin, end, size, alignment);
            ASSERT_EQ(index.lowest_fit(begin, end, size, alignment), expected)
                << "round " << round << ", buffer " << k << ": [" << begin << ", " << end << ") size " << size;
            index.insert(begin, end, expected, size);
            placed.push_back({begin, end, expected, size});
        }
        index.clear();
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GapIndexRandomPlacements,
                         ::testing::Values(Shape{"OneSection", 1, 1, 100, false},
                                           Shape{"ShortLifetimes", 100, 4, 100, false},
                                           Shape{"LongLifetimes", 37, 37, 1000, true},
                                           Shape{"MixedAndAligned", 200, 120, 64, true},
                                           Shape{"TinySizes", 64, 20, 3, true}),
                         [](const ::testing::TestParamInfo<Shape> &info) { return std::string(info.param.name); });

TEST(GapIndex, FillsHolesLowestFirst) {
    GapIndex index(4);
    index.insert(0, 4, 0, 10);   // [0, 10) always
    index.insert(0, 2, 10, 5);   // [10, 15) in sections 0-1
    index.insert(0, 4, 20, 10);  // [20, 30) always: a hole [10, 20) in 2-3, [15, 20) in 0-1
    EXPECT_EQ(index.lowest_fit(2, 4, 10, 1), 10u);
    EXPECT_EQ(index.lowest_fit(1, 3, 5, 1), 15u);
    EXPECT_EQ(index.lowest_fit(1, 3, 6, 1), 30u);
    EXPECT_EQ(index.lowest_fit(1, 3, 4, 8), 16u);  // aligned inside the hole
    EXPECT_EQ(index.lowest_fit(1, 3, 4, 16), 16u);
    EXPECT_EQ(index.lowest_fit(1, 3, 5, 16), 32u);  // no multiple of 16 in the hole leaves room
}

}  // namespace
}  // namespace harena::detail
