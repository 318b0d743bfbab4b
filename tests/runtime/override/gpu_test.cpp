// CUDA pipelines through the override on a real GPU; every test skips where
// no CUDA device is usable. Driver allocations are counted at the driver
// (cuda_driver.h), not inferred from the override's own counters.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"
#include "cuda_driver.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "harena_rt_chain_cuda.h"
#include "host_arena.h"

using harena_test::cuda_driver_counts;
using harena_test::last_error_mentions;

namespace {

constexpr int kWidth = 4096;
const int kValues[] = {3, 17, 8, 31, 1, 12, 64, 5};

bool bit_identical(const std::vector<float> &a, const std::vector<float> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

class OverrideGpu : public ::testing::Test {
protected:
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        input = Halide::Runtime::Buffer<float>(kWidth);
        output = Halide::Runtime::Buffer<float>(kWidth);
        std::mt19937 rng(3);
        std::uniform_real_distribution<float> value(-1.0f, 1.0f);
        input.for_each_value([&](float &v) { v = value(rng); });
        // Unscoped runs take Halide's default path; they also leave input
        // and output with their device memory, so scoped runs allocate only
        // intermediates.
        for (int k : kValues) {
            expected.push_back(run(k));
        }
    }

    std::vector<float> run(int k, int *status = nullptr) {
        const int result = harena_rt_chain_cuda(input, k, output);
        if (status != nullptr) {
            *status = result;
        } else {
            EXPECT_EQ(result, 0) << harena_last_error();
        }
        EXPECT_EQ(output.copy_to_host(), 0);
        return std::vector<float>(output.begin(), output.end());
    }

    static harena_override_counters counters() {
        harena_override_counters c;
        harena_override_get_counters(&c);
        return c;
    }

    static void reset_counts() {
        harena_test::reset_cuda_driver_counts();
        harena_override_reset_counters();
    }

    Halide::Runtime::Buffer<float> input, output;
    std::vector<std::vector<float>> expected;
};

}  // namespace

TEST_F(OverrideGpu, ScopedRunsAreBitIdenticalAndMakeNoDriverAllocation) {
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), 64 << 20);
    reset_counts();
    for (int repeat = 0; repeat < 3; repeat++) {
        for (size_t i = 0; i < std::size(kValues); i++) {
            harena::Scope scope(arena);
            EXPECT_TRUE(bit_identical(run(kValues[i]), expected[i])) << "k = " << kValues[i];
        }
    }
    EXPECT_EQ(cuda_driver_counts().allocations, 0);
    EXPECT_EQ(cuda_driver_counts().frees, 0);
    EXPECT_EQ(counters().device_default_allocations, 0u);
    EXPECT_EQ(counters().device_default_frees, 0u);
    EXPECT_GT(counters().device_arena_allocations, 0u);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
    std::printf("%s", arena.stats_string().c_str());
}

TEST_F(OverrideGpu, TheDriverCountSeesUnscopedAllocations) {
    // Without Halide's cache every unscoped run allocates its intermediates
    // in the driver: the zero above is a measurement, not a blind spot.
    halide_reuse_device_allocations(nullptr, false);
    reset_counts();
    EXPECT_TRUE(bit_identical(run(kValues[1]), expected[1]));
    EXPECT_GT(cuda_driver_counts().allocations, 0);
    EXPECT_GT(cuda_driver_counts().frees, 0);
    halide_reuse_device_allocations(nullptr, true);
}

TEST_F(OverrideGpu, TooSmallArenaFallsBackAndStaysCorrect) {
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), 64 << 10, options);
    for (size_t i = 0; i < std::size(kValues); i++) {
        harena::Scope scope(arena);
        EXPECT_TRUE(bit_identical(run(kValues[i]), expected[i])) << "k = " << kValues[i];
    }
    EXPECT_GT(arena.stats().fallbacks, 0u);
    EXPECT_GT(counters().device_arena_allocations, 0u);
}

TEST_F(OverrideGpu, TooSmallArenaFailsTheRunUnderTheErrorPolicy) {
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), 64 << 10);
    {
        harena::Scope scope(arena);
        int status = 0;
        (void)run(64, &status);
        EXPECT_NE(status, 0);
        EXPECT_TRUE(last_error_mentions({"cannot allocate", "halide_buffer_t", "left of 65536 bytes"}));
    }
    EXPECT_EQ(arena.stats().frame_depth, 0u);
    EXPECT_TRUE(bit_identical(run(kValues[0]), expected[0]));
}

TEST_F(OverrideGpu, DeviceMemoryFromElsewhereBacksTheArena) {
    // Another allocator's block (here Halide's), wrapped: the arena never
    // allocates or frees it.
    Halide::Runtime::Buffer<uint8_t> block(16 << 20);
    ASSERT_EQ(block.device_malloc(halide_cuda_device_interface()), 0);
    {
        harena::Arena arena =
            harena::Arena::wrap(halide_cuda_device_interface(), block.raw_buffer()->device, 16 << 20);
        reset_counts();
        for (size_t i = 0; i < std::size(kValues); i++) {
            harena::Scope scope(arena);
            EXPECT_TRUE(bit_identical(run(kValues[i]), expected[i])) << "k = " << kValues[i];
        }
        EXPECT_EQ(cuda_driver_counts().allocations, 0);
    }
    // Destroying the arena left the block to its owner.
    EXPECT_EQ(cuda_driver_counts().frees, 0);
}

TEST_F(OverrideGpu, ReportsPerRunTimes) {
    // Informational: median time per run, k changing every run, device
    // synchronized, with Halide's default path and with the arena.
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), 64 << 20);
    auto median_us = [&](bool scoped) {
        std::vector<double> times;
        for (int r = 0; r < 400; r++) {
            const int k = kValues[r % std::size(kValues)];
            const auto start = std::chrono::steady_clock::now();
            if (scoped) {
                harena::Scope scope(arena);
                EXPECT_EQ(harena_rt_chain_cuda(input, k, output), 0);
            } else {
                EXPECT_EQ(harena_rt_chain_cuda(input, k, output), 0);
            }
            EXPECT_EQ(output.device_sync(), 0);
            times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(times.begin(), times.end());
        return times[times.size() / 2];
    };
    (void)median_us(false);
    (void)median_us(true);
    const double unscoped = median_us(false);
    const double scoped = median_us(true);
    std::printf("median per run: Halide default %.1f us, arena scope %.1f us (%.2fx)\n", unscoped, scoped,
                unscoped / scoped);
}
