// Every test generator, built for the host with and without the arena plan:
// bit-identical output at several sizes and k (including the declared
// maxima), no heap allocation of intermediates in planned runs, an arena of
// exactly the reported size suffices at the maximum, and bad input is refused
// before any stage runs.
#include "host_pipeline_table.h"
#include "pipeline_harness.h"

#include "harena/arena.hpp"

#include "e2e_multi_output_arena.arena.h"
#include "e2e_multi_output_arena.h"
#include "e2e_multi_output_plain.h"
#include "e2e_parallel_strips_noslots.arena.h"
#include "e2e_parallel_strips_noslots.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

class HostPipeline : public ::testing::TestWithParam<GeneratedPipeline> {};

struct Case {
    int w, h, k;
};

TEST_P(HostPipeline, MatchesUnplannedBitForBitWithoutHeapAllocations) {
    const GeneratedPipeline &p = GetParam();
    for (Case c : {Case{16, 16, 1}, Case{97, 61, 7}, Case{kMaxExtent, kMaxExtent, kMaxK}, Case{1, 300, 3}}) {
        Buffer<float> in(c.w, c.h), ref(c.w, c.h), got(c.w, c.h);
        fill_random(in, c.w * 131 + c.h * 7 + c.k);
        ASSERT_EQ(p.plain(in, c.k, ref), 0) << p.name;
        HostArena arena(p.arena_bytes);
        MallocCounter mallocs;
        int code = p.planned(arena.get(), in, c.k, got);
        int heap_allocations = mallocs.count();
        ASSERT_EQ(code, 0) << p.name << ": " << last_error();
        EXPECT_EQ(heap_allocations, 0) << p.name << ": intermediates reached halide_malloc";
        EXPECT_LE(arena.high_water(), p.arena_bytes) << p.name;
        EXPECT_EQ(first_difference(ref, got), "") << p.name << " at " << c.w << "x" << c.h << " k=" << c.k;
    }
}

TEST_P(HostPipeline, ReportedArenaBytesCoverTheMaximaTightly) {
    const GeneratedPipeline &p = GetParam();
    Buffer<float> in(kMaxExtent, kMaxExtent), out(kMaxExtent, kMaxExtent);
    fill_random(in, 5);
    HostArena exact(p.arena_bytes);
    ASSERT_EQ(p.planned(exact.get(), in, kMaxK, out), 0) << p.name << ": " << last_error();
    // At the declared maxima a run needs the worst case, up to the slack of
    // the bounds derived from the schedule (within 1%).
    uint64_t needed = exact.high_water();
    EXPECT_LE(needed, p.arena_bytes) << p.name;
    EXPECT_GE((double)needed, 0.99 * (double)p.arena_bytes) << p.name;
    // One alignment unit (256 bytes, what the arena reserves in) less than
    // this run needs is refused before any stage runs.
    HostArena short_by_one(needed - 256);
    fill_dense(out, NAN);
    clear_last_error();
    EXPECT_NE(p.planned(short_by_one.get(), in, kMaxK, out), 0) << p.name;
    EXPECT_NE(last_error().find(p.name), std::string::npos) << last_error();
    EXPECT_TRUE(all_nan(out)) << p.name << ": a stage ran although the arena was too small";
    EXPECT_EQ(short_by_one.frame_depth(), 0u) << p.name;
}

TEST_P(HostPipeline, RefusesMissingArenaAndValuesBeyondDeclaredBounds) {
    const GeneratedPipeline &p = GetParam();
    Buffer<float> in(64, 64), out(64, 64), ref(64, 64);
    HostArena arena(p.arena_bytes);
    clear_last_error();
    EXPECT_NE(p.planned(nullptr, in, 4, out), 0) << p.name;
    EXPECT_NE(last_error().find("arena"), std::string::npos) << last_error();
    // Halide checks a scalar's declared range only where the pipeline
    // computes with it; either way a value beyond it never yields a result
    // that differs from the unplanned pipeline's.
    fill_random(in, 3);
    clear_last_error();
    if (p.planned(arena.get(), in, kMaxK + 1, out) != 0) {
        EXPECT_NE(last_error().find("Parameter k is " + std::to_string(kMaxK + 1)), std::string::npos)
            << last_error();
    } else {
        ASSERT_EQ(p.plain(in, kMaxK + 1, ref), 0);
        EXPECT_EQ(first_difference(ref, out), "") << p.name;
    }
    Buffer<float> wide_in(kMaxExtent + 1, 8), wide_out(kMaxExtent + 1, 8);
    clear_last_error();
    EXPECT_NE(p.planned(arena.get(), wide_in, 4, wide_out), 0) << p.name;
    EXPECT_NE(last_error().find("Requirement"), std::string::npos) << last_error();
    // No refusal leaves a frame behind.
    EXPECT_EQ(arena.frame_depth(), 0u) << p.name;
}

TEST_P(HostPipeline, MeasuringGivesTheBytesOfARealRunWithoutRunning) {
    const GeneratedPipeline &p = GetParam();
    for (Case c : {Case{16, 16, 1}, Case{97, 61, 7}, Case{kMaxExtent, kMaxExtent, kMaxK}}) {
        Buffer<float> in(c.w, c.h), out(c.w, c.h);
        fill_random(in, 9);
        fill_dense(out, NAN);
        uint64_t measured = harena::measure([&](void *uc) { return p.planned(uc, in, c.k, out); });
        EXPECT_TRUE(all_nan(out)) << p.name << ": measuring ran a stage";
        EXPECT_LE(measured, p.arena_bytes) << p.name;
        HostArena arena(p.arena_bytes);
        ASSERT_EQ(p.planned(arena.get(), in, c.k, out), 0) << last_error();
        // The arena reserves whole alignment units.
        EXPECT_EQ((measured + 255) / 256 * 256, arena.high_water()) << p.name << " at " << c.w << "x" << c.h;
    }
    Buffer<float> wide(kMaxExtent + 1, 4);
    EXPECT_THROW((void)harena::measure([&](void *uc) { return p.planned(uc, wide, 1, wide); }), harena::Error)
        << p.name << ": arguments beyond the declared bounds are refused, not measured";
}

INSTANTIATE_TEST_SUITE_P(E2E, HostPipeline, ::testing::ValuesIn(kHostPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

TEST(E2EHostMultiOutput, BothOutputsMatchUnplanned) {
    for (int n : {16, 200, kMaxExtent}) {
        Buffer<float> in(n, n), ref1(n, n), ref2(n, n), got1(n, n), got2(n, n);
        fill_random(in, n);
        ASSERT_EQ(e2e_multi_output_plain(in, 3, ref1, ref2), 0);
        HostArena arena(E2E_MULTI_OUTPUT_ARENA_ARENA_BYTES);
        MallocCounter mallocs;
        ASSERT_EQ(e2e_multi_output_arena(arena.get(), in, 3, got1, got2), 0) << last_error();
        EXPECT_EQ(mallocs.count(), 0);
        EXPECT_EQ(first_difference(ref1, got1), "");
        EXPECT_EQ(first_difference(ref2, got2), "");
    }
}

TEST(E2EHostParallel, EveryStripTakesASlotAndTheStatsCountThem) {
    // parallel_strips: 32-row strips in parallel, three stages inside each
    // (one with its rows in parallel, one async).
    const int n = kMaxExtent;
    Buffer<float> in(n, n), ref(n, n), got(n, n);
    fill_random(in, 11);
    ASSERT_EQ(e2e_parallel_strips_plain(in, 5, ref), 0);
    HostArena arena(E2E_PARALLEL_STRIPS_ARENA_ARENA_BYTES);
    for (int call = 0; call < 3; call++) {
        MallocCounter mallocs;
        ASSERT_EQ(e2e_parallel_strips_arena(arena.get(), in, 5, got), 0) << last_error();
        EXPECT_EQ(mallocs.count(), 0) << "call " << call;
        EXPECT_EQ(first_difference(ref, got), "") << "call " << call;
    }
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(arena.get(), &stats), HARENA_OK);
    // 16 strips a call (blur_y's own parallel rows allocate nothing: no slots).
    EXPECT_EQ(stats.slot_tasks, 3u * 16);
    EXPECT_EQ(stats.slot_fallbacks, 0u);
    EXPECT_GE(stats.slot_high_water, 1u);
    EXPECT_LE(stats.slot_high_water, 16u);
    char text[2048];
    ASSERT_GT(harena_format_stats(arena.get(), text, sizeof text), 0);
    EXPECT_NE(std::string(text).find("slot tasks     48 (0 found no free slot"), std::string::npos) << text;
}

TEST(E2EHostParallel, WithoutSlotsEveryStripAllocatesFromTheHeapAndMatches) {
    // harena.parallel_slots=0: every task takes the fallback.
    const int n = kMaxExtent;
    Buffer<float> in(n, n), ref(n, n), got(n, n);
    fill_random(in, 12);
    ASSERT_EQ(e2e_parallel_strips_plain(in, 5, ref), 0);
    HostArena arena(E2E_PARALLEL_STRIPS_NOSLOTS_ARENA_BYTES);
    for (int call = 0; call < 3; call++) {
        MallocCounter mallocs;
        ASSERT_EQ(e2e_parallel_strips_noslots(arena.get(), in, 5, got), 0) << last_error();
        // Each of the 16 strips takes one heap block for its three stages'
        // buffers, which lie in it as they would in a slot.
        EXPECT_EQ(mallocs.count(), 16) << "call " << call;
        EXPECT_EQ(first_difference(ref, got), "") << "call " << call;
    }
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(arena.get(), &stats), HARENA_OK);
    EXPECT_EQ(stats.slot_tasks, 0u);
    EXPECT_EQ(stats.slot_fallbacks, 3u * 16);
}

TEST(E2EHostRuns, SmallRunsNeedFarLessThanTheWorstCase) {
    // The worst-case plan is replayed for each call's sizes, so a 16x16 run
    // of a pipeline whose buffers follow the output's size needs a small
    // fraction of the arena its 512x512 maximum needs.
    Buffer<float> in(16, 16), out(16, 16), ref(16, 16);
    fill_random(in, 4);
    for (const GeneratedPipeline &p : kHostPipelines) {
        if (std::string(p.name) != "chain" && std::string(p.name) != "pyramid") {
            continue;
        }
        uint64_t measured = harena::measure([&](void *uc) { return p.planned(uc, in, 3, out); });
        EXPECT_LT(measured * 4, p.arena_bytes) << p.name;
        HostArena small((measured + 255) / 256 * 256);
        ASSERT_EQ(p.planned(small.get(), in, 3, out), 0) << p.name << ": " << last_error();
        ASSERT_EQ(p.plain(in, 3, ref), 0);
        EXPECT_EQ(first_difference(ref, out), "") << p.name;
    }
}

// The pipelines are planned at 256-byte alignment. An arena of a smaller
// alignment whose frame base falls between two 256-byte boundaries would hand
// every planned slice an address the plan did not assume: the call is refused
// before any stage runs, naming both alignments.
TEST(E2EHostRuns, AnArenaOfASmallerAlignmentIsRefused) {
    std::vector<uint8_t> memory(E2E_CHAIN_ARENA_ARENA_BYTES + 4096);
    const uint64_t aligned = (reinterpret_cast<uint64_t>(memory.data()) + 255) / 256 * 256;
    harena_options options;
    harena_options_init(&options);
    options.alignment = 64;
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create_from_memory(nullptr, aligned + 64, E2E_CHAIN_ARENA_ARENA_BYTES + 1024, &options, &arena),
              HARENA_OK);
    Buffer<float> in(64, 48), got(64, 48);
    fill_random(in, 5);
    clear_last_error();
    EXPECT_NE(e2e_chain_arena(arena, in, 3, got), 0);
    const std::string error = last_error();
    EXPECT_NE(error.find("aligns its buffers to 256 bytes"), std::string::npos) << error;
    EXPECT_NE(error.find("alignment 64"), std::string::npos) << error;
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(arena, &stats), HARENA_OK);
    EXPECT_EQ(stats.frame_depth, 0u);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(E2EHostRuns, PlannedPipelinesRunBackToBackOnOneArena) {
    uint64_t biggest = 0;
    for (const GeneratedPipeline &p : kHostPipelines) {
        biggest = std::max(biggest, p.arena_bytes);
    }
    HostArena arena(biggest);
    Buffer<float> in(128, 96), ref(128, 96), got(128, 96);
    fill_random(in, 11);
    for (int round = 0; round < 3; round++) {
        for (const GeneratedPipeline &p : kHostPipelines) {
            ASSERT_EQ(p.plain(in, 5, ref), 0);
            ASSERT_EQ(p.planned(arena.get(), in, 5, got), 0) << p.name << ": " << last_error();
            EXPECT_EQ(first_difference(ref, got), "") << p.name;
        }
    }
}

}  // namespace
