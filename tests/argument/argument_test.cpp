// The arena as a buffer argument, called as a user's program calls a
// pipeline: host buffers in and out, reused, new input values and sizes
// every call; each call's output compared bit for bit with the unplanned
// build's. Nothing of halide-arena's runtime is linked: the planned library
// needs Halide's runtime only.
#include "argument_unsharp_arena.arena.h"
#include "argument_unsharp_arena.h"
#include "argument_unsharp_cuda_arena.h"
#include "argument_unsharp_cuda_plain.h"
#include "argument_unsharp_plain.h"
#include "cuda_driver.h"

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <string>

namespace {

using Halide::Runtime::Buffer;
using Pipeline = std::function<int(halide_buffer_t *input, halide_buffer_t *arena, halide_buffer_t *output)>;

std::string last_error;
void keep_error(void *, const char *message) {
    last_error = message;
}

struct Call {
    int width, height;
};

// Sizes around the estimate (256 x 192), larger and smaller.
constexpr Call kCalls[] = {{256, 192}, {300, 220}, {128, 96}, {333, 201}, {256, 192}, {64, 240}};

// The arena for the largest call: sizes scale with the image, up to 1.6x the
// estimate's area here.
constexpr uint64_t kArenaBytes = 2 * ARGUMENT_UNSHARP_ARENA_ARENA_BYTES_AT_ESTIMATES;

void fill(Buffer<float, 3> &b, std::mt19937 &rng) {
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    b.for_each_value([&](float &v) { v = value(rng); });
}

// Both builds over every call of kCalls, each with its own host buffers
// reused across calls as RunGen and user programs do, and the same new input
// values before each call.
void expect_identical_calls(const Pipeline &plain, const Pipeline &planned, bool gpu) {
    std::mt19937 rng(7);
    Buffer<uint8_t, 1> arena(kArenaBytes);
    Buffer<uint8_t, 1> unused(1);
    for (const Call &call : kCalls) {
        Buffer<float, 3> input(call.width, call.height, 3), out_plain(call.width, call.height, 3),
            out_planned(call.width, call.height, 3);
        fill(input, rng);
        out_plain.fill(-1.0f);
        out_planned.fill(-2.0f);
        input.set_host_dirty();
        ASSERT_EQ(plain(input, unused, out_plain), 0) << last_error;
        ASSERT_EQ(planned(input, arena, out_planned), 0) << last_error;
        if (gpu) {
            out_plain.copy_to_host();
            out_planned.copy_to_host();
            // The arena's device memory came with the first call and stays.
            EXPECT_NE(arena.raw_buffer()->device, 0u);
        }
        ASSERT_EQ(std::memcmp(out_plain.data(), out_planned.data(), out_plain.size_in_bytes()), 0)
            << "call " << call.width << "x" << call.height;
    }
}

// An arena smaller than the call needs fails the call through Halide's
// error handler, naming the argument and both sizes, before any planned
// buffer is written: the buffer's bytes are as they were.
void expect_too_small_refused(const Pipeline &planned) {
    Buffer<float, 3> input(256, 192, 3), output(256, 192, 3);
    input.fill(0.5f);
    Buffer<uint8_t, 1> small(4096);
    small.fill(0xAB);
    last_error.clear();
    EXPECT_NE(planned(input, small, output), 0);
    EXPECT_NE(last_error.find("arena argument 'arena' of "), std::string::npos) << last_error;
    EXPECT_NE(last_error.find("holds 4096 bytes; this call needs "), std::string::npos) << last_error;
    // Refused before the call gave the buffer device memory (device plans)
    // or touched its host memory (host plans).
    EXPECT_EQ(small.raw_buffer()->device, 0u);
    small.for_each_value([](uint8_t v) { ASSERT_EQ(v, 0xAB); });
}

class ArgumentHost : public ::testing::Test {
protected:
    void SetUp() override {
        halide_set_error_handler(keep_error);
    }
};

TEST_F(ArgumentHost, EveryCallMatchesTheUnplannedBuild) {
    expect_identical_calls(argument_unsharp_plain, argument_unsharp_arena, false);
}

TEST_F(ArgumentHost, AnArenaTooSmallForTheCallIsRefusedNamingBothSizes) {
    expect_too_small_refused(argument_unsharp_arena);
}

TEST_F(ArgumentHost, TheEstimateIsThePlansBytes) {
    const halide_filter_metadata_t *m = argument_unsharp_arena_metadata();
    for (int i = 0; i < m->num_arguments; i++) {
        const halide_filter_argument_t &a = m->arguments[i];
        if (std::string(a.name) == "arena") {
            ASSERT_NE(a.buffer_estimates, nullptr);
            ASSERT_NE(a.buffer_estimates[1], nullptr);
            EXPECT_EQ(uint64_t(*a.buffer_estimates[1]), ARGUMENT_UNSHARP_ARENA_ARENA_BYTES_AT_ESTIMATES);
            return;
        }
    }
    FAIL() << "no argument 'arena' in the metadata";
}

class ArgumentCuda : public ::testing::Test {
protected:
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        halide_set_error_handler(keep_error);
    }
};

TEST_F(ArgumentCuda, EveryCallMatchesTheUnplannedBuild) {
    expect_identical_calls(argument_unsharp_cuda_plain, argument_unsharp_cuda_arena, true);
}

TEST_F(ArgumentCuda, AnArenaTooSmallForTheCallIsRefusedNamingBothSizes) {
    expect_too_small_refused(argument_unsharp_cuda_arena);
}

}  // namespace
