// harena::SliceResource on two and four streams, over an arena whose region
// comes from RMM's pool (harena::ResourceArena): rounds of allocations that
// take turns on the streams, each filled and checked by kernels, must find
// only their own pattern and pay one event record and one stream wait per
// round. Skips without a GPU.
#include <gtest/gtest.h>

#include <rmm/mr/cuda_async_memory_resource.hpp>
#include <rmm/mr/cuda_memory_resource.hpp>
#include <rmm/mr/pool_memory_resource.hpp>

#include <cstdio>
#include <string>

#include "harena/rmm.hpp"
#include "stream_rounds.h"

namespace {

using harena_test::ErrorCount;
using harena_test::RoundBuffer;
using harena_test::TestStreams;

constexpr std::size_t kArenaBytes = 64 << 20;
constexpr int kRounds = 48;

class RmmStreams : public ::testing::TestWithParam<int> {
protected:
    void SetUp() override {
        const char *why = "";
        if (!harena_test::load_pattern_kernels(&why)) {
            GTEST_SKIP() << why;
        }
    }

    // kRounds rounds on the streams in turn through `resource`, inside one
    // frame on the first stream.
    void run_rounds(harena::SliceResource &resource, const TestStreams &streams, const ErrorCount &errors) {
        harena_frame frame{};
        ASSERT_EQ(harena_push_on_stream(resource.arena(), 0, streams.streams[0], &frame), HARENA_OK);
        const uint32_t words = harena_test::round_words();
        for (int r = 0; r < kRounds; r++) {
            const cuda::stream_ref stream{streams.streams[r % streams.streams.size()]};
            void *a = resource.allocate(stream, words * 4ull);
            void *b = resource.allocate(stream, words * 4ull);
            harena_test::queue_round(stream.get(),
                                     r,
                                     {RoundBuffer{reinterpret_cast<uint64_t>(a), words},
                                      RoundBuffer{reinterpret_cast<uint64_t>(b), words}},
                                     errors);
            resource.deallocate(stream, b, words * 4ull);
            resource.deallocate(stream, a, words * 4ull);
        }
        ASSERT_EQ(harena_pop(resource.arena(), frame), HARENA_OK);
        for (CUstream s : streams.streams) {
            ASSERT_EQ(harena_test::stream_test_driver()->stream_synchronize(s), CUDA_SUCCESS);
        }
    }

    void expect_one_crossing_per_round(harena_arena *arena, const ErrorCount &errors, const char *upstream) {
        harena_stats s{};
        ASSERT_EQ(harena_get_stats(arena, &s), HARENA_OK);
        EXPECT_EQ(errors.read(), 0u) << "words a round found holding another round's pattern";
        EXPECT_EQ(s.stream_crossings, uint64_t(kRounds - 1));
        EXPECT_EQ(s.stream_events_recorded, uint64_t(kRounds - 1));
        EXPECT_EQ(s.stream_waits, uint64_t(kRounds - 1));
        std::printf("[ info ] %s, %d streams, arena from %s: %d rounds, %llu crossings, %llu events, %llu waits, "
                    "%u wrong words\n",
                    harena_test::gpu_name(), GetParam(), upstream, kRounds,
                    static_cast<unsigned long long>(s.stream_crossings),
                    static_cast<unsigned long long>(s.stream_events_recorded),
                    static_cast<unsigned long long>(s.stream_waits), errors.read());
    }
};

TEST_P(RmmStreams, SlicesFromAPoolSuppliedArenaTakeTurns) {
    TestStreams streams(GetParam());
    rmm::mr::cuda_memory_resource cuda;
    rmm::mr::pool_memory_resource pool{cuda, 128 << 20};
    harena::ResourceArena arena(harena::DeviceResource{pool}, kArenaBytes, cuda::stream_ref{streams.streams[0]});
    harena::SliceResource resource(arena.get());
    ErrorCount errors;
    run_rounds(resource, streams, errors);
    expect_one_crossing_per_round(arena.get(), errors, "pool_memory_resource");
    EXPECT_EQ(resource.statistics().allocations_total, size_t(2 * kRounds));
    EXPECT_EQ(resource.statistics().bytes_current, 0u);
}

TEST_P(RmmStreams, SlicesFromAnAsyncSuppliedArenaTakeTurns) {
    TestStreams streams(GetParam());
    rmm::mr::cuda_async_memory_resource async;
    harena::ResourceArena arena(harena::DeviceResource{async}, kArenaBytes, cuda::stream_ref{streams.streams[0]});
    harena::SliceResource resource(arena.get());
    ErrorCount errors;
    run_rounds(resource, streams, errors);
    expect_one_crossing_per_round(arena.get(), errors, "cuda_async_memory_resource");
}

INSTANTIATE_TEST_SUITE_P(Streams, RmmStreams, ::testing::Values(2, 4),
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
