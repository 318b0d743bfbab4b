// The planned CUDA test pipelines through the graph cache, on the arena's own
// stream: the first call with a key runs, the second is captured, later ones
// replay. Every call gets new input values written into the same device
// buffer (a replay reads what the buffer holds at launch) and a poisoned
// output, waited for with harena_graph_wait, and is compared bit for bit
// with the plain pipeline on the same values. Pipelines that declare host work fall back, with the reason counted.
// Skips where no CUDA device is usable.
#include "cuda_driver.h"
#include "cuda_test.h"
#include "cuda_pipeline_table.h"
#include "gpu_graph_support.h"

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

using GpuGraph = CudaTestWithParam<GeneratedPipeline>;

TEST_P(GpuGraph, CapturedCallsReplayBitIdenticalOnNewInputs) {
    const GeneratedPipeline &p = GetParam();
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena arena = harena::Arena::device(cuda, p.arena_bytes ? p.arena_bytes : 256);
    harena::use_own_stream(arena);
    harena::GraphCache graphs(arena, 4);
    const int n = 200;
    Buffer<float> in(n, n), out(n, n), ref(n, n);
    const int ks[] = {9, 9, 9, 9, 3, 3, 3, 9};
    std::vector<int> outcomes;
    int replay_driver_allocations = 0;
    for (int call = 0; call < 8; call++) {
        const int k = ks[call];
        write_input(arena, in, static_cast<uint32_t>(100 + call));
        poison(arena, out);
        ASSERT_EQ(p.plain(in, k, ref), 0) << last_error();
        ASSERT_EQ(ref.copy_to_host(), 0);
        reset_cuda_driver_counts();
        ASSERT_EQ(graphs.run(p.planned, in.raw_buffer(), k, out.raw_buffer()), 0) << p.name << ": " << last_error();
        // A replay's own signal (the stream after an ordinary call); the copy
        // below runs on Halide's stream, so only this wait orders it after.
        graphs.wait();
        if (graphs.last_outcome() == HARENA_GRAPH_REPLAYED) {
            replay_driver_allocations += cuda_driver_counts().allocations;
        }
        outcomes.push_back(graphs.last_outcome());
        // A replay marks the output device-dirty as the pipeline would.
        if (p.capturable) {
            ASSERT_TRUE(out.raw_buffer()->device_dirty()) << p.name << ", call " << call;
        }
        ASSERT_EQ(out.copy_to_host(), 0);
        EXPECT_EQ(first_difference(ref, out), "") << p.name << ", call " << call << ", k " << k << ", outcome "
                                                  << graphs.last_outcome();
    }
    const harena_graph_stats s = graphs.stats();
    if (p.capturable) {
        const std::vector<int> expected = {HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED,
                                           HARENA_GRAPH_REPLAYED, HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED,
                                           HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED};
        EXPECT_EQ(outcomes, expected) << p.name;
        EXPECT_EQ(s.captures, 2u);
        EXPECT_EQ(s.replays, 4u);
        EXPECT_EQ(replay_driver_allocations, 0) << p.name;
    } else {
        EXPECT_EQ(s.captures, 0u) << p.name;
        EXPECT_EQ(s.fallbacks[HARENA_GRAPH_NOT_CAPTURABLE] + s.fallbacks[HARENA_GRAPH_NOT_PLANNED], 6u) << p.name;
    }
    std::printf("%s: %s; captures %llu, replays %llu, fallbacks: not capturable %llu, not planned %llu\n", p.name,
                p.capturable ? "capturable" : "not capturable", (unsigned long long)s.captures,
                (unsigned long long)s.replays, (unsigned long long)s.fallbacks[HARENA_GRAPH_NOT_CAPTURABLE],
                (unsigned long long)s.fallbacks[HARENA_GRAPH_NOT_PLANNED]);
}

TEST_P(GpuGraph, AnInputLeftOnTheHostIsAFallbackNotAStaleReplay) {
    const GeneratedPipeline &p = GetParam();
    if (!p.capturable) {
        GTEST_SKIP() << p.name << " is not capturable";
    }
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena arena = harena::Arena::device(cuda, p.arena_bytes);
    harena::use_own_stream(arena);
    harena::GraphCache graphs(arena, 4);
    Buffer<float> in(64, 64), out(64, 64), ref(64, 64);
    ASSERT_EQ(out.device_malloc(cuda), 0);  // outputs too: the pipeline would allocate it during the call
    for (int call = 0; call < 3; call++) {
        write_input(arena, in, static_cast<uint32_t>(call));
        ASSERT_EQ(graphs.run(p.planned, in.raw_buffer(), 5, out.raw_buffer()), 0);
    }
    ASSERT_EQ(graphs.last_outcome(), HARENA_GRAPH_REPLAYED);
    harena::synchronize(arena);
    fill_random(in, 77);
    in.set_host_dirty();  // written on the host and not uploaded: the pipeline uploads it
    ASSERT_EQ(graphs.run(p.planned, in.raw_buffer(), 5, out.raw_buffer()), 0);
    EXPECT_EQ(graphs.last_outcome(), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_ARGUMENT_ON_HOST], 1u);
    harena::synchronize(arena);
    ASSERT_EQ(p.plain(in, 5, ref), 0);
    ASSERT_EQ(ref.copy_to_host(), 0);
    ASSERT_EQ(out.copy_to_host(), 0);
    EXPECT_EQ(first_difference(ref, out), "") << p.name;
}

INSTANTIATE_TEST_SUITE_P(E2E, GpuGraph, ::testing::ValuesIn(kCudaPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
