// The test generators built for host-cuda, plain and planned, run on the GPU:
// bit-identical output, and no device allocation reaches the driver during
// planned runs (cuMemAlloc and cuMemFree are counted where Halide's CUDA
// runtime looks them up, see tests/support/cuda_driver.h); the generators that
// declare estimates only, at sizes around them. Skips where no CUDA device is
// usable.
#include "cuda_driver.h"
#include "cuda_test.h"
#include "cuda_pipeline_table.h"
#include "e2e_parallel_strips_cuda_noslots.arena.h"
#include "e2e_parallel_strips_cuda_noslots.h"
#include "pipeline_harness.h"

#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"

#include <gtest/gtest.h>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

using GpuPipeline = CudaTestWithParam<GeneratedPipeline>;

TEST_P(GpuPipeline, MatchesUnplannedWithoutDriverAllocations) {
    const GeneratedPipeline &p = GetParam();
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena_arena *arena = nullptr;
    // A pipeline that plans nothing (all its buffers stay on the host) still
    // takes an arena; it just never opens a frame in it.
    const bool plans_something = p.arena_bytes > 0;
    ASSERT_EQ(harena_create(nullptr, cuda, plans_something ? p.arena_bytes : 256, nullptr, &arena), 0)
        << harena_last_error();
    for (int n : {16, 200, kMaxExtent}) {
        Buffer<float> in(n, n), ref(n, n), got(n, n);
        fill_random(in, n);
        ASSERT_EQ(p.plain(in, 9, ref), 0) << p.name << ": " << last_error();
        ref.copy_to_host();
        // Inputs and outputs live on the device before the run, so any
        // device allocation during it would be an intermediate's.
        ASSERT_EQ(in.copy_to_device(cuda), 0);
        ASSERT_EQ(got.device_malloc(cuda), 0);
        harena_stats before, after;
        harena_get_stats(arena, &before);
        reset_cuda_driver_counts();
        ASSERT_EQ(p.planned(arena, in, 9, got), 0) << p.name << ": " << last_error();
        EXPECT_EQ(cuda_driver_counts().allocations, 0) << p.name << ": a device allocation reached the driver";
        EXPECT_EQ(cuda_driver_counts().frees, 0) << p.name << ": a device free reached the driver";
        harena_get_stats(arena, &after);
        EXPECT_EQ(after.frames_pushed, before.frames_pushed + (plans_something ? 1 : 0)) << p.name;
        got.copy_to_host();
        EXPECT_EQ(first_difference(ref, got), "") << p.name << " at " << n;
        in.device_free();
        ref.device_free();
        got.device_free();
    }
    EXPECT_EQ(harena_destroy(arena), 0);
}

INSTANTIATE_TEST_SUITE_P(E2E, GpuPipeline, ::testing::ValuesIn(kCudaPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

class GpuParallelStrips : public ::testing::Test {
protected:
    void SetUp() override {
        if (!cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
    }
};

// parallel_strips launches its kernels inside parallel CPU strips: with
// slots, each strip's device buffers lie in its task's slot; with none
// (harena.parallel_slots=0), every task allocates them through Halide's
// device malloc and frees them, as the plain build does. In guard mode each
// slot is banded: every band is filled and checked, none damaged.
TEST_F(GpuParallelStrips, SlotsAndTheirFallbackMatchThePlainBuildOnEveryCall) {
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    const int n = kMaxExtent;
    struct Build {
        const char *name;
        int (*planned)(const void *, halide_buffer_t *, int, halide_buffer_t *);
        uint64_t bytes;
        bool in_slots;
        bool guard;
    };
    // Guard mode: a band before each slot and after each slice, 256 bytes each.
    constexpr uint64_t kBandsRoom = 1 << 20;
    for (Build b :
         {Build{"slots", e2e_parallel_strips_cuda_arena, E2E_PARALLEL_STRIPS_CUDA_ARENA_ARENA_BYTES, true, false},
          Build{"slots in guard mode", e2e_parallel_strips_cuda_arena,
                E2E_PARALLEL_STRIPS_CUDA_ARENA_ARENA_BYTES + kBandsRoom, true, true},
          Build{"no slots", e2e_parallel_strips_cuda_noslots, E2E_PARALLEL_STRIPS_CUDA_NOSLOTS_ARENA_BYTES, false,
                false}}) {
        harena_options options;
        harena_options_init(&options);
        options.guard = b.guard ? 1 : 0;
        harena_arena *arena = nullptr;
        ASSERT_EQ(harena_create(nullptr, cuda, b.bytes, &options, &arena), 0) << harena_last_error();
        for (int call = 0; call < 3; call++) {
            Buffer<float> in(n, n), ref(n, n), got(n, n);
            fill_random(in, 20 + call);
            ASSERT_EQ(e2e_parallel_strips_cuda_plain(in, 6, ref), 0) << last_error();
            ref.copy_to_host();
            ASSERT_EQ(in.copy_to_device(cuda), 0);
            ASSERT_EQ(got.device_malloc(cuda), 0);
            reset_cuda_driver_counts();
            ASSERT_EQ(b.planned(arena, in, 6, got), 0) << b.name << ": " << last_error();
            if (b.in_slots) {
                EXPECT_EQ(cuda_driver_counts().allocations, 0) << b.name << ": a device allocation reached the driver";
            }
            got.copy_to_host();
            EXPECT_EQ(first_difference(ref, got), "") << b.name << ", call " << call;
        }
        harena_stats stats;
        ASSERT_EQ(harena_get_stats(arena, &stats), 0);
        // 8 strips of 64 rows a call.
        EXPECT_EQ(stats.slot_tasks, b.in_slots ? 3u * 8 : 0u) << b.name;
        EXPECT_EQ(stats.slot_fallbacks, b.in_slots ? 0u : 3u * 8) << b.name;
        // Each task's opening band and its three buffers' are checked.
        if (b.guard) {
            EXPECT_GE(stats.guard_checks, 3u * 8 * 4) << b.name;
        } else {
            EXPECT_EQ(stats.guard_checks, 0u) << b.name;
        }
        EXPECT_EQ(stats.guard_damaged, 0u) << b.name;
        EXPECT_EQ(harena_destroy(arena), 0);
    }
}

using GpuEstimatedPipeline = CudaTestWithParam<EstimatedPipeline>;

// Below, at and at twice the estimates, each in an arena of what the call
// measures, three calls on the same buffers with new input each call.
TEST_P(GpuEstimatedPipeline, MatchesUnplannedAtEverySizeWithoutDriverAllocations) {
    const EstimatedPipeline &p = GetParam();
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    const int e = p.extent_estimate, s = p.scalar_estimate;
    struct Size {
        int w, h, scalar;
    };
    for (Size z : {Size{e * 2 / 5, e / 4 + 3, s / 2}, Size{e, e, s}, Size{2 * e, 2 * e, 2 * s}}) {
        Buffer<float> in(z.w, z.h), ref(z.w, z.h), got(z.w, z.h);
        fill_random(in, 1);
        ASSERT_EQ(in.copy_to_device(cuda), 0);
        ASSERT_EQ(got.device_malloc(cuda), 0);
        uint64_t measured = 0;
        try {
            measured = harena::measure([&](void *uc) { return p.planned(uc, in, z.scalar, got); });
        } catch (const std::exception &error) {
            FAIL() << p.name << " at " << z.w << "x" << z.h << ": measuring failed: " << error.what() << " "
                   << last_error();
        }
        harena_arena *arena = nullptr;
        ASSERT_EQ(harena_create(nullptr, cuda, (measured + 255) / 256 * 256, nullptr, &arena), 0) << harena_last_error();
        for (int call = 0; call < 3; call++) {
            fill_random(in, 1000 * call + z.w);
            in.set_host_dirty();
            ASSERT_EQ(p.plain(in, z.scalar, ref), 0) << p.name << ": " << last_error();
            ref.copy_to_host();
            ASSERT_EQ(in.copy_to_device(cuda), 0);
            reset_cuda_driver_counts();
            ASSERT_EQ(p.planned(arena, in, z.scalar, got), 0) << p.name << ": " << last_error();
            EXPECT_EQ(cuda_driver_counts().allocations, 0) << p.name << ": a device allocation reached the driver";
            EXPECT_EQ(cuda_driver_counts().frees, 0) << p.name << ": a device free reached the driver";
            got.copy_to_host();
            EXPECT_EQ(first_difference(ref, got), "") << p.name << " at " << z.w << "x" << z.h << ", call " << call;
        }
        EXPECT_EQ(harena_destroy(arena), 0);
        in.device_free();
        ref.device_free();
        got.device_free();
    }
}

INSTANTIATE_TEST_SUITE_P(E2E, GpuEstimatedPipeline, ::testing::ValuesIn(kCudaEstimatedPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
