// Guard mode end to end on the host (tests/generators/planted_overflow.cpp): the
// planned pipeline runs unchanged in guard mode, bit-identical to the plain
// one call after call at sizes around its estimates, and each planted write
// outside its intermediate (one element past the end, one row past the end,
// one row before the start) fails the call with a report naming the buffer
// and the pipeline, after which the arena stays usable. The plain pipeline,
// its halide_malloc routed into a guarded arena by the heap hook, is caught
// too where its write leaves what it asked Halide for. Both with `written`
// computed once per call and in each of the output's parallel strips, where
// it lies in the slot of each task.
#include "HalideBuffer.h"
#include "e2e_planted_overflow_arena.h"
#include "e2e_planted_overflow_plain.h"
#include "e2e_planted_strips_arena.h"
#include "e2e_planted_strips_plain.h"
#include "harena/override.h"
#include "harena/runtime.h"
#include "planted_overruns.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <tuple>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

class Arena {
public:
    explicit Arena(bool guard) {
        harena_options o;
        harena_options_init(&o);
        o.guard = guard ? 1 : 0;
        o.guard_bytes = kPlantedBand;
        EXPECT_EQ(harena_create(nullptr, nullptr, 4 << 20, &o, &arena_), HARENA_OK) << harena_last_error();
    }
    ~Arena() {
        EXPECT_EQ(harena_destroy(arena_), HARENA_OK) << harena_last_error();
    }
    Arena(const Arena &) = delete;
    Arena &operator=(const Arena &) = delete;

    harena_arena *get() const {
        return arena_;
    }
    harena_stats stats() const {
        harena_stats s{};
        EXPECT_EQ(harena_get_stats(arena_, &s), HARENA_OK);
        return s;
    }

private:
    harena_arena *arena_ = nullptr;
};

void fill(Buffer<float> &b, int seed) {
    b.for_each_element([&](int x, int y) { b(x, y) = float((x * 7 + y * 13 + seed * 31) % 97) * 0.25f; });
}

bool same_bits(const Buffer<float> &a, const Buffer<float> &b) {
    return std::memcmp(a.data(), b.data(), a.size_in_bytes()) == 0;
}

bool mentions(const std::string &piece) {
    return std::string(harena_last_error()).find(piece) != std::string::npos;
}

// One schedule of the planted pipeline, plain and planned.
struct PlantedBuild {
    const char *name;
    int (*plain)(halide_buffer_t *, int, int, halide_buffer_t *);
    int (*planned)(const void *, halide_buffer_t *, int, int, halide_buffer_t *);
    const char *pipeline;  // as reports name it
    const char *before;    // what a write before `written` damages
    bool one_task;         // `written` is written once per call, not in each strip
};
void PrintTo(const PlantedBuild &b, std::ostream *os) {
    *os << b.name;
}
const PlantedBuild kPlantedBuilds[] = {
    {"ComputeRoot", e2e_planted_overflow_plain, e2e_planted_overflow_arena, "pipeline 'e2e_planted_overflow_arena'",
     "before the first slice of its frame", true},
    {"InParallelStrips", e2e_planted_strips_plain, e2e_planted_strips_arena, "pipeline 'e2e_planted_strips_arena'",
     "before the first slice of a slot of loop", false},
};

}  // namespace

class GuardHost : public ::testing::TestWithParam<PlantedBuild> {};

TEST_P(GuardHost, APlannedPipelineRunsUnchangedInGuardModeCallAfterCall) {
    const PlantedBuild &b = GetParam();
    Arena guarded(true);
    for (const PlantedSize &z : kPlantedSizes) {
        SCOPED_TRACE(std::to_string(z.w) + "x" + std::to_string(z.h));
        Buffer<float> in(z.w, z.h), ref(z.w, z.h), got(z.w, z.h);
        for (int call = 0; call < 3; call++) {
            fill(in, call);
            ASSERT_EQ(b.plain(in, 0, 0, ref), 0);
            std::fill_n(got.data(), got.number_of_elements(), -1.0f);  // not Buffer::fill: see pipeline_harness.h
            ASSERT_EQ(b.planned(guarded.get(), in, 0, 0, got), 0) << harena_last_error();
            EXPECT_TRUE(same_bits(ref, got)) << "call " << call;
        }
    }
    const harena_stats s = guarded.stats();
    EXPECT_GE(s.guard_checks, 2u * 9u);  // each call: the frame's first band and the intermediate's
    EXPECT_EQ(s.guard_damaged, 0u);
    EXPECT_EQ(s.frame_depth, 0u);
    EXPECT_EQ(s.slot_fallbacks, 0u);
    EXPECT_EQ(s.slot_tasks == 0, b.one_task);
}

INSTANTIATE_TEST_SUITE_P(Planted, GuardHost, ::testing::ValuesIn(kPlantedBuilds),
                         [](const ::testing::TestParamInfo<PlantedBuild> &info) { return std::string(info.param.name); });

class GuardHostOverrun : public ::testing::TestWithParam<std::tuple<PlantedBuild, Overrun>> {};

TEST_P(GuardHostOverrun, IsReportedNamingTheBufferAndThePipelineAndTheArenaStaysUsable) {
    const PlantedBuild &b = std::get<0>(GetParam());
    const Overrun &o = std::get<1>(GetParam());
    Arena guarded(true);
    for (const PlantedSize &z : kPlantedSizes) {
        SCOPED_TRACE(std::to_string(z.w) + "x" + std::to_string(z.h));
        Buffer<float> in(z.w, z.h), ref(z.w, z.h), got(z.w, z.h);
        fill(in, z.w);
        const uint64_t damaged = guarded.stats().guard_damaged;
        EXPECT_EQ(b.planned(guarded.get(), in, o.x, o.y, got), HARENA_ERROR_GUARD_DAMAGED);
        EXPECT_TRUE(mentions(b.pipeline)) << harena_last_error();
        EXPECT_TRUE(mentions(o.y < 0 ? b.before : "past the end of buffer 'written'")) << harena_last_error();
        EXPECT_TRUE(mentions(expected_extent(o, z.w))) << harena_last_error();
        EXPECT_EQ(guarded.stats().frame_depth, 0u);
        // One damaged band a call, or in strips, at least one: each task
        // damages its own and one report fails the call.
        if (b.one_task) {
            EXPECT_EQ(guarded.stats().guard_damaged, damaged + 1);
        } else {
            EXPECT_GE(guarded.stats().guard_damaged, damaged + 1);
        }
        // The next call, correct, runs and matches.
        ASSERT_EQ(b.plain(in, 0, 0, ref), 0);
        ASSERT_EQ(b.planned(guarded.get(), in, 0, 0, got), 0) << harena_last_error();
        EXPECT_TRUE(same_bits(ref, got));
    }
}

INSTANTIATE_TEST_SUITE_P(Planted, GuardHostOverrun, ::testing::Combine(::testing::ValuesIn(kPlantedBuilds), ::testing::ValuesIn(kOverruns)),
                         [](const ::testing::TestParamInfo<std::tuple<PlantedBuild, Overrun>> &info) {
                             return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name;
                         });

TEST(GuardHostOff, WithGuardModeOffTheSameWriteGoesUnnoticed) {
    // What guard mode is for: the arena alone cannot see the stray write.
    Arena plain(false);
    Buffer<float> in(64, 64), got(64, 64);
    fill(in, 3);
    EXPECT_EQ(e2e_planted_overflow_arena(plain.get(), in, 0, 1, got), 0);
    EXPECT_EQ(plain.stats().guard_checks, 0u);
}

// Halide pads each heap allocation by three elements (it may read that far
// past the end), so the heap hook's band starts after the padding: a stray
// row is caught, a single stray element stays inside what Halide asked for.
TEST(GuardHostHeapHook, APlainPipelinesStrayRowIsCaughtThroughTheHeapHook) {
    ASSERT_EQ(harena_install_host_heap_hook(), HARENA_OK);
    Arena guarded(true);
    Buffer<float> in(64, 64), ref(64, 64), got(64, 64);
    fill(in, 5);
    ASSERT_EQ(e2e_planted_overflow_plain(in, 0, 0, ref), 0);
    for (int y : {0, 1}) {
        harena_scope scope;
        ASSERT_EQ(harena_scope_begin(&scope, guarded.get()), HARENA_OK);
        const int result = e2e_planted_overflow_plain(in, 0, y, got);
        EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
        EXPECT_EQ(result, 0);  // halide_free has no result: the report is the error
        if (y == 0) {
            EXPECT_TRUE(same_bits(ref, got));
            EXPECT_EQ(guarded.stats().guard_damaged, 0u);
        } else {
            EXPECT_EQ(guarded.stats().guard_damaged, 1u);
            EXPECT_TRUE(mentions("past the end of 'a halide_malloc block'")) << harena_last_error();
        }
    }
    EXPECT_GT(guarded.stats().allocations, 0u);
}
