// FloorCover against brute force: every choice of pieces that do not
// overlap within a level, on small random inputs.
#include <gtest/gtest.h>

#include <random>

#include "solver/detail/exact/floor_cover.h"

namespace harena::detail {
namespace {

// Whether some set of pieces, no two of one level overlapping, covers every
// floor with a piece of the floor's level.
bool brute_force(uint32_t first, uint32_t last, const std::vector<uint64_t> &floors, const std::vector<Piece> &pieces) {
    for (uint32_t chosen = 0; chosen < (1u << pieces.size()); chosen++) {
        std::vector<std::vector<int>> cover(3, std::vector<int>(last, 0));
        for (size_t k = 0; k < pieces.size(); k++) {
            if (!(chosen >> k & 1)) continue;
            for (uint32_t s = pieces[k].begin; s < pieces[k].end; s++)
                cover[pieces[k].level][s]++;
        }
        bool ok = true;
        for (uint64_t level = 0; level < 3; level++) {
            for (uint32_t s = first; s < last; s++)
                ok = ok && cover[level][s] <= 1;
        }
        for (uint32_t s = first; s < last; s++) {
            ok = ok && (floors[s - first] == FloorCover::kFree || cover[floors[s - first]][s] == 1);
        }
        if (ok) return true;
    }
    return false;
}

TEST(FloorCover, AgreesWithBruteForce) {
    std::mt19937_64 rng(5);
    auto pick = [&](uint32_t lo, uint32_t hi) { return std::uniform_int_distribution<uint32_t>(lo, hi)(rng); };
    int possible = 0;
    for (int k = 0; k < 3000; k++) {
        const uint32_t first = pick(0, 2), last = first + pick(1, 7);
        std::vector<uint64_t> floors;
        for (uint32_t s = first; s < last; s++)
            floors.push_back(pick(0, 3) == 0 ? FloorCover::kFree : pick(0, 2));
        std::vector<Piece> pieces;
        for (uint32_t n = pick(0, 9); n > 0; n--) {
            uint32_t begin = pick(first, last - 1);
            pieces.push_back({begin, pick(begin + 1, last), pick(0, 2)});
        }
        std::sort(pieces.begin(), pieces.end(), [](const Piece &a, const Piece &b) { return a.begin < b.begin; });
        FloorCover cover(last, uint32_t(pieces.size()));
        const bool expected = brute_force(first, last, floors, pieces);
        ASSERT_EQ(cover.possible(first, last, floors, pieces), expected) << "case " << k;
        // Reused, it must give the same answer.
        ASSERT_EQ(cover.possible(first, last, floors, pieces), expected) << "case " << k;
        possible += expected;
    }
    // Both answers are common.
    EXPECT_GT(possible, 300);
    EXPECT_LT(possible, 2700);
}

}  // namespace
}  // namespace harena::detail
