// The gap index's free lists against a bitmap of free bytes.
#include <gtest/gtest.h>

#include <ostream>
#include <random>
#include <string>

#include "solver/detail/greedy/free_list.h"

namespace harena::detail {
namespace {

constexpr uint64_t kBytes = 6000;  // the bitmap's reach; beyond it all is free

uint64_t naive_next_fit(const std::vector<bool> &taken, uint64_t from, uint64_t size, uint64_t alignment) {
    for (uint64_t at = from;; at += alignment) {
        bool free = true;
        for (uint64_t b = at; b < at + size && b < kBytes && free; b++)
            free = !taken[b];
        if (free) return at;
    }
}

struct Pattern {
    const char *name;
    uint64_t max_take;  // length of a taken range
    int takes;
    bool big_clears;  // now and then take a wide range (erasing many ranges, across blocks)
};

// Test listings name the shape, not its bytes.
void PrintTo(const Pattern &value, std::ostream *out) {
    *out << value.name;
}

class FreeListRandomTakes : public ::testing::TestWithParam<Pattern> {};

TEST_P(FreeListRandomTakes, MatchesBitmap) {
    const Pattern &pattern = GetParam();
    std::mt19937_64 rng(pattern.takes + pattern.max_take);
    FreeList list;
    std::vector<bool> taken(kBytes, false);
    for (int k = 0; k < pattern.takes; k++) {
        uint64_t lo = rng() % kBytes;
        uint64_t length = pattern.big_clears && k % 97 == 96 ? 300 + rng() % 1500 : 1 + rng() % pattern.max_take;
        uint64_t hi = std::min(kBytes, lo + length);
        list.take(lo, hi);
        for (uint64_t b = lo; b < hi; b++)
            taken[b] = true;
        for (int q = 0; q < 3; q++) {
            uint64_t alignment = uint64_t(1) << (rng() % 4);
            uint64_t from = (rng() % kBytes) & ~(alignment - 1);
            uint64_t size = 1 + rng() % 12;
            ASSERT_EQ(list.next_fit(from, size, alignment), naive_next_fit(taken, from, size, alignment))
                << "take " << k << ": from " << from << " size " << size << " alignment " << alignment;
        }
    }
    // The ranges are the runs of free bytes below kBytes plus the last one.
    size_t runs = 0;
    for (uint64_t b = 0; b < kBytes; b++)
        runs += !taken[b] && (b == 0 || taken[b - 1]);
    EXPECT_EQ(list.size(), taken.back() ? runs + 1 : runs);
    uint64_t top = kBytes;
    while (top > 0 && !taken[top - 1])
        top--;
    EXPECT_EQ(list.top(), top);
}

INSTANTIATE_TEST_SUITE_P(Patterns, FreeListRandomTakes,
                         ::testing::Values(Pattern{"ManySlivers", 3, 1500, false},
                                           Pattern{"SliversAndClears", 4, 3000, true},
                                           Pattern{"WideTakes", 200, 200, false}),
                         [](const ::testing::TestParamInfo<Pattern> &info) { return std::string(info.param.name); });

TEST(FreeList, StartsAllFree) {
    FreeList list;
    EXPECT_EQ(list.size(), 1u);
    EXPECT_EQ(list.top(), 0u);
    EXPECT_EQ(list.next_fit(64, 1000, 64), 64u);
}

}  // namespace
}  // namespace harena::detail
