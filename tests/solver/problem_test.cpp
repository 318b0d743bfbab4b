// check_problem and lower_bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "solver/problem.h"
#include "test_util.h"

namespace harena {
namespace {

std::string error_of(const Problem &p) {
    try {
        check_problem(p);
    } catch (const InputError &e) {
        return e.what();
    }
    return "";
}

TEST(SolverProblem, AcceptsEmptyAndZeroSize) {
    EXPECT_EQ(error_of({}), "");
    EXPECT_EQ(error_of({{{"z", 0, 1, 0, 256}}}), "");
    EXPECT_EQ(lower_bound({}), 0u);
    EXPECT_EQ(lower_bound({{{"z", 0, 1, 0, 256}}}), 0u);
}

TEST(SolverProblem, AcceptsDuplicateIds) {
    EXPECT_EQ(error_of({{{"a", 0, 2, 10, 1}, {"a", 1, 3, 10, 1}}}), "");
}

TEST(SolverProblem, RejectsEmptyLifetime) {
    std::string e = error_of({{{"ok", 0, 1, 8, 1}, {"conv", 5, 5, 8, 1}}});
    EXPECT_NE(e.find("'conv' (#1)"), std::string::npos) << e;
    EXPECT_NE(e.find("[5, 5)"), std::string::npos) << e;
    EXPECT_NE(error_of({{{"back", 7, 3, 8, 1}}}).find("empty"), std::string::npos);
}

TEST(SolverProblem, RejectsAlignmentNotPowerOfTwo) {
    for (uint64_t a : {0ull, 3ull, 96ull, 257ull}) {
        std::string e = error_of({{{"b", 0, 1, 8, a}}});
        EXPECT_NE(e.find("not a power of two"), std::string::npos) << e;
        EXPECT_NE(e.find("'b' (#0)"), std::string::npos) << e;
    }
}

TEST(SolverProblem, RejectsSizesThatCouldOverflow) {
    const uint64_t big = uint64_t(1) << 63;
    EXPECT_NE(error_of({{{"huge", 0, 1, big, 1}}}).find("2^63"), std::string::npos);
    EXPECT_NE(error_of({{{"max", 0, 1, UINT64_MAX, 256}}}).find("2^63"), std::string::npos);
    // Each fits alone; together (even with disjoint lifetimes) they could not.
    std::string e = error_of({{{"x", 0, 1, big / 2, 1}, {"y", 5, 6, big / 2, 1}}});
    EXPECT_NE(e.find("'y' (#1)"), std::string::npos) << e;
    // Alignment counts: the padding it may need is part of the bound.
    EXPECT_NE(error_of({{{"a", 0, 1, 1, big}}}).find("2^63"), std::string::npos);
    EXPECT_EQ(error_of({{{"fine", 0, 1, (uint64_t(1) << 62), 1}}}), "");
}

TEST(SolverProblem, LowerBoundIsPeakOfLiveBytes) {
    // a and b overlap at step 1, b and c at step 2: peak 300.
    EXPECT_EQ(lower_bound({{{"a", 0, 2, 100, 1}, {"b", 1, 3, 200, 1}, {"c", 2, 4, 100, 1}}}), 300u);
    // Half-open: a ends where c begins, so they never add up.
    EXPECT_EQ(lower_bound({{{"a", 0, 2, 100, 1}, {"c", 2, 4, 100, 1}}}), 100u);
}

TEST(SolverProblem, LowerBoundRoundsAllButTheTopmostBuffer) {
    // Two 100-byte buffers at 256 alignment: the lower one occupies 256.
    EXPECT_EQ(lower_bound({{{"a", 0, 1, 100, 256}, {"b", 0, 1, 100, 256}}}), 356u);
    // One alone needs only its size.
    EXPECT_EQ(lower_bound({{{"a", 0, 1, 100, 256}}}), 100u);
    // Mixed alignments round to the smallest live one: a byte-aligned buffer
    // can sit right after a 256-aligned one.
    EXPECT_EQ(lower_bound({{{"a", 0, 1, 100, 256}, {"b", 0, 1, 100, 1}}}), 200u);
}

// The bound straight from its definition: at each time, the live sizes
// rounded up to the smallest live alignment, less the largest rounding
// (the topmost buffer needs none), the highest over all times. Ends count
// too: when a buffer with a fine alignment ends, the others round coarser.
uint64_t naive_lower_bound(const Problem &p) {
    uint64_t bound = 0;
    std::vector<int64_t> times;
    for (const Buffer &b : p.buffers) {
        times.push_back(b.begin);
        times.push_back(b.end);
    }
    for (const int64_t t : times) {
        uint64_t alignment = UINT64_MAX;
        for (const Buffer &b : p.buffers) {
            if (b.size > 0 && b.begin <= t && t < b.end) alignment = std::min(alignment, b.alignment);
        }
        if (alignment == UINT64_MAX) continue;
        uint64_t sum = 0, slack = 0;
        for (const Buffer &b : p.buffers) {
            if (b.size == 0 || !(b.begin <= t && t < b.end)) continue;
            uint64_t rounded = (b.size + alignment - 1) / alignment * alignment;
            sum += rounded;
            slack = std::max(slack, rounded - b.size);
        }
        bound = std::max(bound, sum - slack);
    }
    return bound;
}

TEST(SolverProblem, LowerBoundMatchesItsDefinitionOnRandomProblems) {
    std::mt19937_64 rng(11);
    for (int k = 0; k < 300; k++) {
        Problem p = testing::random_problem(rng, 1 + k % 60);
        // Every third problem mixes in alignments above 64 KiB, which the bound
        // tracks differently from small ones.
        if (k % 3 == 0) {
            for (Buffer &b : p.buffers)
                b.alignment = uint64_t(1) << (std::uniform_int_distribution<int>(0, 3)(rng) * 7);
        }
        ASSERT_EQ(lower_bound(p), naive_lower_bound(p)) << "problem " << k;
    }
}

}  // namespace
}  // namespace harena
