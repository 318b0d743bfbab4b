// The graph cache's fallbacks on a real GPU, each from a call a user could
// write: a pipeline that is not planned, a call that also allocates from the
// arena, a call that synchronizes its own stream while it is being captured,
// and an arena without a stream. Each call's output is poisoned first and
// compared bit for bit with the plain pipeline on new inputs; the reason is
// counted once and not retried. (No driver, the remaining reason, cannot
// happen where the GPU tests run: the stand-in backend of
// tests/runtime/graph/cache_test.cpp covers it.) Skips where no CUDA device
// is usable.
#include "cuda_driver.h"
#include "cuda_test.h"
#include "cuda_pipeline_table.h"
#include "gpu_graph_support.h"

#include <memory>
#include <string>
#include <vector>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

const GeneratedPipeline &chain() {
    const GeneratedPipeline &p = kCudaPipelines[0];
    EXPECT_EQ(std::string(p.name), "chain");
    return p;
}

// What the call passed to the cache does besides (or instead of) the
// planned pipeline.
enum class Extra { none,
                   plain_pipeline,
                   scratch_from_arena,
                   sync_own_stream };

struct Call {
    Extra extra;
    Buffer<float> *in, *out;
    int k;
};

int call_pipeline(void *user_context, void *closure) {
    Call &c = *static_cast<Call *>(closure);
    if (c.extra == Extra::plain_pipeline) {
        return chain().plain(c.in->raw_buffer(), c.k, c.out->raw_buffer());
    }
    auto *arena = static_cast<harena_arena *>(user_context);
    if (c.extra == Extra::scratch_from_arena) {
        // Scratch memory for the caller's own use, taken from the arena in
        // the call: the cache cannot tell whether a captured kernel would
        // use an address from a frame that pops when the call returns, so
        // any allocation during a capture refuses the graph.
        harena_frame frame;
        uint64_t scratch = 0;
        if (int err = harena_push(arena, 0, &frame)) {
            return err;
        }
        const int err = harena_alloc(arena, 4096, "caller scratch", &scratch);
        if (int popped = harena_pop(arena, frame)) {
            return popped;
        }
        if (err != 0) {
            return err;
        }
    }
    if (int err = chain().planned(user_context, c.in->raw_buffer(), c.k, c.out->raw_buffer())) {
        return err;
    }
    if (c.extra == Extra::sync_own_stream) {
        // Waiting for the result inside the call: not allowed while the
        // stream is being captured, so the capture is invalidated.
        return halide_device_sync(user_context, c.out->raw_buffer());
    }
    return 0;
}

struct Case {
    const char *name;
    Extra extra;
    bool own_stream;
    int reason;  // enum harena_graph_fallback
};
void PrintTo(const Case &c, std::ostream *os) {
    *os << c.name;
}

using GpuGraphFallback = CudaTestWithParam<Case>;

TEST_P(GpuGraphFallback, FallsBackForTheReasonOnceAndEveryCallIsBitIdentical) {
    const Case &c = GetParam();
    const GeneratedPipeline &p = chain();
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena arena = harena::Arena::device(cuda, p.arena_bytes + (64 << 10));
    if (c.own_stream) {
        harena::use_own_stream(arena);
    }
    // The C interface: the calls are closures, not pipeline functions.
    harena_graph_cache *raw = nullptr;
    ASSERT_EQ(harena_graph_cache_create(arena.get(), 4, &raw), 0);
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> graphs(raw, harena_graph_cache_destroy);
    const int n = 128, k = 5;
    Buffer<float> in(n, n), out(n, n), ref(n, n);
    ASSERT_EQ(out.device_malloc(cuda), 0);
    Call call{c.extra, &in, &out, k};
    std::vector<int> outcomes;
    const int calls = 4;
    for (int i = 0; i < calls; i++) {
        write_input(arena, in, static_cast<uint32_t>(300 + i), c.own_stream);
        poison(arena, out);
        ASSERT_EQ(p.plain(in, k, ref), 0) << last_error();
        ASSERT_EQ(ref.copy_to_host(), 0);
        const int key = 1;  // the arguments never change: one key
        int outcome = -1;
        halide_buffer_t *buffers[] = {in.raw_buffer(), out.raw_buffer()};
        ASSERT_EQ(harena_graph_run(graphs.get(), &key, sizeof key, buffers, 2, call_pipeline, &call, &outcome),
                  0)
            << c.name << ", call " << i << ": " << last_error();
        outcomes.push_back(outcome);
        if (c.own_stream) {
            harena::synchronize(arena);
        }
        ASSERT_EQ(out.copy_to_host(), 0);
        EXPECT_EQ(first_difference(ref, out), "") << c.name << ", call " << i << ", outcome " << outcome;
    }
    harena_graph_stats s;
    ASSERT_EQ(harena_graph_get_stats(graphs.get(), &s), 0);
    // Without a stream nothing is keyed; otherwise the first call runs, the
    // second tries the capture and falls back, the rest fall back untried.
    const uint64_t expected_fallbacks = c.own_stream ? calls - 1 : calls;
    EXPECT_EQ(s.fallbacks[c.reason], expected_fallbacks) << c.name << ": " << harena_graph_fallback_name(c.reason);
    EXPECT_EQ(s.captures, 0u) << c.name;
    EXPECT_EQ(s.replays, 0u) << c.name;
    for (int r = 0; r < HARENA_GRAPH_FALLBACK_REASONS; r++) {
        if (r != c.reason) {
            EXPECT_EQ(s.fallbacks[r], 0u) << c.name << ": " << harena_graph_fallback_name(r);
        }
    }
    EXPECT_EQ(outcomes.back(), HARENA_GRAPH_FELL_BACK) << c.name;
    EXPECT_EQ(arena.stats().frame_depth, 0u) << c.name;
    std::printf("%s: fallbacks for '%s' %llu of %d calls\n", c.name, harena_graph_fallback_name(c.reason),
                (unsigned long long)s.fallbacks[c.reason], calls);
}

const Case kCases[] = {
    {"PlainPipelineIsNotPlanned", Extra::plain_pipeline, true, HARENA_GRAPH_NOT_PLANNED},
    {"ScratchFromTheArenaIsAnAllocation", Extra::scratch_from_arena, true, HARENA_GRAPH_ALLOCATED},
    {"SyncInsideTheCallFailsTheCapture", Extra::sync_own_stream, true, HARENA_GRAPH_CAPTURE_FAILED},
    {"ArenaWithoutAStream", Extra::none, false, HARENA_GRAPH_NO_STREAM},
};

INSTANTIATE_TEST_SUITE_P(E2E, GpuGraphFallback, ::testing::ValuesIn(kCases),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
