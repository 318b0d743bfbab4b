// The generators that declare estimates only, built for the host with and
// without the plan: below, at and at twice the estimates, three calls per size
// on the same host buffers with new input values each call, bit-identical to
// the unplanned pipeline in an arena of exactly what the call measures; an
// arena sized at the estimates refuses a larger call before any stage runs.
// The same generators built with maxima given as options (PARAMS
// harena.max.<name>=N) are bounded and refuse a call beyond a maximum.
#include "host_pipeline_table.h"
#include "pipeline_harness.h"

#include "harena/arena.hpp"

#include "e2e_follow_input_maxed.arena.h"
#include "e2e_follow_input_maxed.h"
#include "e2e_level_pyramid_maxed.arena.h"
#include "e2e_level_pyramid_maxed.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

static_assert(E2E_LEVEL_PYRAMID_MAXED_ARENA_BOUNDED == 1 && E2E_FOLLOW_INPUT_MAXED_ARENA_BOUNDED == 1);

// What the arena reserves for a frame: whole alignment units.
uint64_t reserved(uint64_t bytes) {
    return (bytes + 255) / 256 * 256;
}

struct Size {
    int w, h, scalar;
    const char *where;
};

std::vector<Size> sizes_around(const EstimatedPipeline &p) {
    const int e = p.extent_estimate, s = p.scalar_estimate;
    return {{e * 2 / 5, e / 4 + 3, s / 2, "below"}, {e, e, s, "at"}, {2 * e, 2 * e, 2 * s, "twice"}};
}

bool untouched(const Buffer<float> &b) {
    return all_nan(b);
}

class HostEstimatedPipeline : public ::testing::TestWithParam<EstimatedPipeline> {};

TEST_P(HostEstimatedPipeline, MatchesUnplannedBelowAtAndAboveTheEstimatesCallAfterCall) {
    const EstimatedPipeline &p = GetParam();
    for (const Size &z : sizes_around(p)) {
        SCOPED_TRACE(std::string(p.name) + " " + z.where + " the estimates: " + std::to_string(z.w) + "x" +
                     std::to_string(z.h) + ", scalar " + std::to_string(z.scalar));
        Buffer<float> in(z.w, z.h), ref(z.w, z.h), got(z.w, z.h);
        fill_random(in, 1);
        const uint64_t measured = harena::measure([&](void *uc) { return p.planned(uc, in, z.scalar, got); });
        ASSERT_GT(measured, 0u) << last_error();
        if (std::string(z.where) == "at") {
            EXPECT_EQ(reserved(measured), p.bytes_at_estimates) << "a call at the estimates needs what the header says";
        } else if (std::string(z.where) == "twice") {
            EXPECT_GT(measured, p.bytes_at_estimates);
        }
        HostArena arena(reserved(measured));
        for (int call = 0; call < 3; call++) {
            fill_random(in, 1000 * call + z.w);
            ASSERT_EQ(p.plain(in, z.scalar, ref), 0) << last_error();
            MallocCounter mallocs;
            const int code = p.planned(arena.get(), in, z.scalar, got);
            const int heap_allocations = mallocs.count();
            ASSERT_EQ(code, 0) << "call " << call << ": " << last_error();
            EXPECT_EQ(heap_allocations, 0) << "call " << call << ": intermediates reached halide_malloc";
            EXPECT_EQ(first_difference(ref, got), "") << "call " << call;
            EXPECT_EQ(arena.high_water(), reserved(measured)) << "call " << call;
            EXPECT_EQ(arena.frame_depth(), 0u) << "call " << call;
        }
    }
}

TEST_P(HostEstimatedPipeline, AnArenaSizedAtTheEstimatesRefusesALargerCallBeforeAnyStage) {
    const EstimatedPipeline &p = GetParam();
    const Size twice = sizes_around(p)[2];
    Buffer<float> in(twice.w, twice.h), out(twice.w, twice.h);
    fill_random(in, 7);
    fill_dense(out, NAN);
    HostArena arena(p.bytes_at_estimates);
    clear_last_error();
    EXPECT_NE(p.planned(arena.get(), in, twice.scalar, out), 0) << p.name;
    EXPECT_NE(last_error().find("pipeline 'e2e_" + std::string(p.name) + "_arena' needs"), std::string::npos)
        << last_error();
    EXPECT_TRUE(untouched(out)) << p.name << ": a stage ran although the arena was too small";
    EXPECT_EQ(arena.frame_depth(), 0u) << p.name;
}

INSTANTIATE_TEST_SUITE_P(E2E, HostEstimatedPipeline, ::testing::ValuesIn(kHostEstimatedPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

// level_pyramid built with PARAMS harena.max.levels=8 harena.max.output.0=512
// harena.max.output.1=512; follow_input with maxima on every input and output
// dimension (tests/e2e/CMakeLists.txt).
struct MaxedPipeline {
    const char *name;
    PlainFn plain;
    PlannedFn planned;
    uint64_t arena_bytes;
};
void PrintTo(const MaxedPipeline &p, std::ostream *os) {
    *os << p.name;
}

class HostMaxedPipeline : public ::testing::TestWithParam<MaxedPipeline> {};

TEST_P(HostMaxedPipeline, MaximaGivenAsOptionsBoundThePlanAndAreEnforced) {
    const MaxedPipeline &p = GetParam();
    // At the maxima: the worst case, and tightly so.
    Buffer<float> in(512, 512), ref(512, 512), got(512, 512);
    fill_random(in, 3);
    ASSERT_EQ(p.plain(in, 8, ref), 0) << last_error();
    HostArena arena(p.arena_bytes);
    ASSERT_EQ(p.planned(arena.get(), in, 8, got), 0) << p.name << ": " << last_error();
    EXPECT_EQ(first_difference(ref, got), "") << p.name;
    EXPECT_LE(arena.high_water(), p.arena_bytes) << p.name;
    EXPECT_GE((double)arena.high_water(), 0.99 * (double)p.arena_bytes) << p.name;
    // One past a maximum: refused by the requirement, which names the option.
    Buffer<float> wide_in(513, 16), wide_out(513, 16);
    fill_random(wide_in, 4);
    fill_dense(wide_out, NAN);
    clear_last_error();
    EXPECT_NE(p.planned(arena.get(), wide_in, 2, wide_out), 0) << p.name;
    EXPECT_NE(last_error().find(std::string(p.name) == "level_pyramid" ? "harena.max.output.0=512" : "harena.max.input.0=512"),
              std::string::npos)
        << last_error();
    EXPECT_TRUE(untouched(wide_out)) << p.name;
    EXPECT_EQ(arena.frame_depth(), 0u) << p.name;
}

TEST(E2EHostMaxima, AScalarBeyondItsMaximumIsRefusedNamingTheOption) {
    Buffer<float> in(64, 64), out(64, 64);
    fill_random(in, 5);
    fill_dense(out, NAN);
    HostArena arena(E2E_LEVEL_PYRAMID_MAXED_ARENA_BYTES);
    clear_last_error();
    EXPECT_NE(e2e_level_pyramid_maxed(arena.get(), in, 9, out), 0);
    EXPECT_NE(last_error().find("harena.max.levels=8"), std::string::npos) << last_error();
    EXPECT_TRUE(untouched(out));
    // The plain pipeline has no such maximum.
    EXPECT_EQ(e2e_level_pyramid_plain(in, 9, out), 0) << last_error();
}

const MaxedPipeline kMaxed[] = {
    {"level_pyramid", e2e_level_pyramid_plain, e2e_level_pyramid_maxed, E2E_LEVEL_PYRAMID_MAXED_ARENA_BYTES},
    {"follow_input", e2e_follow_input_plain, e2e_follow_input_maxed, E2E_FOLLOW_INPUT_MAXED_ARENA_BYTES},
};

INSTANTIATE_TEST_SUITE_P(E2E, HostMaxedPipeline, ::testing::ValuesIn(kMaxed),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
