// Frames of one arena on two and four streams (harena_push_on_stream), with
// kernels that fill the frames' buffers and check them later: every round
// reuses the bytes the previous round used on another stream. Each round
// must find only its own pattern, and the arena must have paid one event
// record and one stream wait per round that changed streams, none for
// rounds that stayed. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "harena/runtime.h"
#include "stream_rounds.h"

namespace {

using harena_test::ErrorCount;
using harena_test::RoundBuffer;
using harena_test::TestStreams;

constexpr uint64_t kArenaBytes = 64 << 20;
constexpr int kRounds = 48;

// Stands in for a device interface: the arena's slices are used by the
// suites' own kernels, never by Halide.
const halide_device_interface_t *identity_interface() {
    static const halide_device_interface_t iface{};
    return &iface;
}

class StreamFrames : public ::testing::TestWithParam<int> {
protected:
    void SetUp() override {
        const char *why = "";
        if (!harena_test::load_pattern_kernels(&why)) {
            GTEST_SKIP() << why;
        }
        ASSERT_EQ(harena_test::stream_test_driver()->mem_alloc(&memory_, kArenaBytes), CUDA_SUCCESS);
        ASSERT_EQ(harena_create_from_memory(identity_interface(), memory_, kArenaBytes, nullptr, &arena_), HARENA_OK)
            << harena_last_error();
    }
    void TearDown() override {
        if (arena_ != nullptr) {
            EXPECT_EQ(harena_destroy(arena_), HARENA_OK) << harena_last_error();
        }
        if (memory_ != 0) {
            (void)harena_test::stream_test_driver()->mem_free(memory_);
        }
    }

    // One round on `stream`: a frame, two buffers filled and checked, popped.
    void round(CUstream stream, int index, const ErrorCount &errors) {
        harena_frame frame{};
        ASSERT_EQ(harena_push_on_stream(arena_, 0, stream, &frame), HARENA_OK) << harena_last_error();
        std::vector<RoundBuffer> buffers;
        for (int b = 0; b < 2; b++) {
            uint64_t address = 0;
            const uint32_t words = harena_test::round_words();
            ASSERT_EQ(harena_alloc_on_stream(arena_, words * 4ull, "pattern", stream, &address), HARENA_OK)
                << harena_last_error();
            buffers.push_back(RoundBuffer{address, words});
        }
        harena_test::queue_round(stream, index, buffers, errors);
        ASSERT_EQ(harena_pop(arena_, frame), HARENA_OK) << harena_last_error();
    }

    harena_stats stats() const {
        harena_stats s{};
        EXPECT_EQ(harena_get_stats(arena_, &s), HARENA_OK);
        return s;
    }

    CUdeviceptr memory_ = 0;
    harena_arena *arena_ = nullptr;
};

TEST_P(StreamFrames, RoundsTakingTurnsSeeOnlyTheirOwnPattern) {
    TestStreams streams(GetParam());
    ASSERT_EQ(streams.streams.size(), size_t(GetParam()));
    ErrorCount errors;
    for (int r = 0; r < kRounds; r++) {
        round(streams.streams[r % GetParam()], r, errors);
    }
    for (CUstream s : streams.streams) {
        ASSERT_EQ(harena_test::stream_test_driver()->stream_synchronize(s), CUDA_SUCCESS);
    }
    EXPECT_EQ(errors.read(), 0u) << "words a round found holding another round's pattern";
    const harena_stats s = stats();
    EXPECT_EQ(s.stream_crossings, uint64_t(kRounds - 1)) << "every round after the first changes streams";
    EXPECT_EQ(s.stream_events_recorded, uint64_t(kRounds - 1));
    EXPECT_EQ(s.stream_waits, uint64_t(kRounds - 1));
    std::printf("[ info ] %s, %d streams: %d rounds, %llu crossings, %llu events, %llu waits, %u wrong words\n",
                harena_test::gpu_name(), GetParam(), kRounds, static_cast<unsigned long long>(s.stream_crossings),
                static_cast<unsigned long long>(s.stream_events_recorded),
                static_cast<unsigned long long>(s.stream_waits), errors.read());
}

TEST_P(StreamFrames, RoundsStayingOnTheirStreamPayNothing) {
    TestStreams streams(GetParam());
    ErrorCount errors;
    // Each stream takes kRounds / streams rounds in a row.
    const int per_stream = kRounds / GetParam();
    for (int r = 0; r < kRounds; r++) {
        round(streams.streams[r / per_stream], r, errors);
    }
    for (CUstream s : streams.streams) {
        ASSERT_EQ(harena_test::stream_test_driver()->stream_synchronize(s), CUDA_SUCCESS);
    }
    EXPECT_EQ(errors.read(), 0u);
    const harena_stats s = stats();
    EXPECT_EQ(s.stream_crossings, uint64_t(GetParam() - 1)) << "one crossing where the next stream takes over";
    EXPECT_EQ(s.stream_events_recorded, uint64_t(GetParam() - 1));
    EXPECT_EQ(s.stream_waits, uint64_t(GetParam() - 1));
}

INSTANTIATE_TEST_SUITE_P(Streams, StreamFrames, ::testing::Values(2, 4),
                         [](const ::testing::TestParamInfo<int> &info) {
                             return info.param == 2 ? std::string("TwoStreams") : std::string("FourStreams");
                         });

}  // namespace

int main(int argc, char **argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (harena_test::drop_stream_waits_if_asked()) {
        std::printf("[ note ] HARENA_TEST_DROP_STREAM_WAIT=1: every stream wait is dropped\n");
    }
    return RUN_ALL_TESTS();
}
