// Replaying a worst-case plan for smaller sizes: never an overlap between
// buffers alive together, never above the plan, and smaller when the sizes are.
#include "solver/compaction.h"
#include "solver/validator.h"
#include "solver_instances/instances.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <random>

namespace harena {
namespace {

using instances::pipeline;
using instances::uniform_random;
using testing::solve_checked;

// The plan `compact_offsets` gives for `sizes`, as a Plan the validator checks.
Plan replay(const Problem &worst, const Plan &plan, const std::vector<uint64_t> &sizes, Problem &actual) {
    actual = worst;
    for (size_t i = 0; i < sizes.size(); i++) {
        actual.buffers[i].size = sizes[i];
    }
    Plan out;
    out.offsets = compact_offsets(worst, plan, sizes);
    for (size_t i = 0; i < sizes.size(); i++) {
        out.arena_bytes = std::max(out.arena_bytes, out.offsets[i] + sizes[i]);
    }
    return out;
}

TEST(Compaction, WorstCaseSizesNeverGrowThePlan) {
    for (uint64_t seed = 0; seed < 50; seed++) {
        Problem p = pipeline(60, seed);
        Plan plan = solve_checked(p);
        std::vector<uint64_t> sizes;
        for (const Buffer &b : p.buffers) {
            sizes.push_back(b.size);
        }
        Problem actual;
        Plan replayed = replay(p, plan, sizes, actual);
        ASSERT_TRUE(validate(actual, replayed).ok) << validate(actual, replayed).error;
        for (size_t i = 0; i < sizes.size(); i++) {
            EXPECT_LE(replayed.offsets[i], plan.offsets[i]) << "seed " << seed;
        }
    }
}

TEST(Compaction, SmallerSizesGiveAValidSmallerLayout) {
    std::mt19937_64 rng(3);
    for (uint64_t seed = 0; seed < 300; seed++) {
        Problem p = seed % 2 ? uniform_random(80, seed) : pipeline(80, seed);
        Plan plan = solve_checked(p);
        // Every buffer at a random fraction of its worst case, as when a
        // pipeline runs below its declared maxima.
        std::vector<uint64_t> sizes;
        for (const Buffer &b : p.buffers) {
            sizes.push_back(b.size ? rng() % (b.size + 1) : 0);
        }
        Problem actual;
        Plan replayed = replay(p, plan, sizes, actual);
        Validation v = validate(actual, replayed);
        ASSERT_TRUE(v.ok) << "seed " << seed << ": " << v.error;
        EXPECT_LE(replayed.arena_bytes, plan.arena_bytes) << "seed " << seed;
    }
}

TEST(Compaction, ABufferMovesDownOntoItsShrunkSupport) {
    Problem p;
    p.buffers = {{"a", 0, 10, 4096, 256}, {"b", 5, 15, 1024, 256}};
    Plan plan = solve_checked(p);
    ASSERT_EQ(plan.arena_bytes, 4096u + 1024u);
    std::vector<uint64_t> offsets = compact_offsets(p, plan, {100, 1024});
    const size_t upper = plan.offsets[0] < plan.offsets[1] ? 1 : 0;
    EXPECT_EQ(offsets[1 - upper], 0u);
    EXPECT_EQ(offsets[upper], upper == 1 ? 256u : 1024u);
}

}  // namespace
}  // namespace harena
