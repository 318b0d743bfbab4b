// A host pipeline, unchanged, whose heap intermediates go into a host arena
// through the heap hook.
#include <cstring>
#include <random>
#include <vector>

#include "HalideBuffer.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "harena_rt_chain_host.h"
#include "host_arena.h"

using harena_test::last_error_mentions;

namespace {

constexpr int kWidth = 1000;
const int kValues[] = {1, 5, 17, 3, 32, 2};

class HostHeapHook : public ::testing::Test {
protected:
    HostHeapHook()
        : input(kWidth) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> value(-1.0f, 1.0f);
        input.for_each_value([&](float &v) { v = value(rng); });
        EXPECT_EQ(harena_install_host_heap_hook(), HARENA_OK);
        for (int k : kValues) {
            expected.push_back(run(k));
        }
        harena_override_reset_counters();
    }

    std::vector<float> run(int k, int *status = nullptr) {
        Halide::Runtime::Buffer<float> output(kWidth);
        const int result = harena_rt_chain_host(input, k, output);
        if (status != nullptr) {
            *status = result;
        } else {
            EXPECT_EQ(result, 0) << harena_last_error();
        }
        return std::vector<float>(output.begin(), output.end());
    }

    static harena_override_counters counters() {
        harena_override_counters c;
        harena_override_get_counters(&c);
        return c;
    }

    Halide::Runtime::Buffer<float> input;
    std::vector<std::vector<float>> expected;
};

bool bit_identical(const std::vector<float> &a, const std::vector<float> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_F(HostHeapHook, ScopedRunsTakeEveryIntermediateFromTheArena) {
    harena::Arena arena = harena::Arena::host(4 << 20);
    for (int repeat = 0; repeat < 3; repeat++) {
        for (size_t i = 0; i < std::size(kValues); i++) {
            harena::Scope scope(arena);
            EXPECT_TRUE(bit_identical(run(kValues[i]), expected[i])) << "k = " << kValues[i];
        }
    }
    EXPECT_GT(counters().heap_arena_allocations, 0u);
    EXPECT_EQ(counters().heap_default_allocations, 0u);
    const harena::Stats s = arena.stats();
    EXPECT_EQ(s.bytes_in_use, 0u);
    EXPECT_GT(s.high_water, sizeof(float) * kWidth * 32);
    EXPECT_EQ(s.frames_pushed, 3 * std::size(kValues));
}

TEST_F(HostHeapHook, OutsideAScopeThePreviousAllocatorServes) {
    harena::Arena arena = harena::Arena::host(4 << 20);
    EXPECT_TRUE(bit_identical(run(kValues[0]), expected[0]));
    EXPECT_EQ(counters().heap_arena_allocations, 0u);
    EXPECT_GT(counters().heap_default_allocations, 0u);
    EXPECT_EQ(arena.stats().allocations, 0u);
}

TEST_F(HostHeapHook, OverflowFallsBackUnderTheFallbackPolicy) {
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = harena::Arena::host(64 << 10, options);
    testing::internal::CaptureStdout();  // the one-time notice, through halide_print
    for (size_t i = 0; i < std::size(kValues); i++) {
        harena::Scope scope(arena);
        EXPECT_TRUE(bit_identical(run(kValues[i]), expected[i])) << "k = " << kValues[i];
    }
    (void)testing::internal::GetCapturedStdout();
    EXPECT_GT(arena.stats().fallbacks, 0u);
    EXPECT_GT(counters().heap_arena_allocations, 0u);
    EXPECT_GT(counters().heap_default_allocations, 0u);
}

TEST_F(HostHeapHook, OverflowFailsThePipelineUnderTheErrorPolicy) {
    harena::Arena arena = harena::Arena::host(64 << 10);
    harena::Scope scope(arena);
    int status = 0;
    testing::internal::CaptureStderr();
    (void)run(32, &status);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_NE(status, 0);
    EXPECT_TRUE(last_error_mentions({"cannot allocate", "'a halide_malloc block'", "of 65536 bytes"}));
}
