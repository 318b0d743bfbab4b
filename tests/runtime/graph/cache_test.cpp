// The graph cache's keying, replacement and fallbacks, with a stand-in
// backend (fake_graph_backend.h). A fake pipeline enters the arena as the
// pass's code for a planned pipeline does, or declares its traits as a
// pipeline that plans nothing does.
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fake_graph_backend.h"
#include "harena/graph.hpp"
#include "host_arena.h"

using namespace harena_test;

namespace {

// How a pipeline built with the arena feature starts, as the pass emits it.
enum class Entry {
    planned,   // enters its frame (and leaves it at the end)
    declared,  // plans nothing: declares its traits
    none       // not built with the feature
};

// A pipeline: its entry, kernels, its exit.
struct FakePipeline {
    uint32_t traits = HARENA_PIPELINE_CAPTURABLE;
    Entry entry = Entry::planned;
    bool allocates = false;  // bumps an unplanned allocation in its frame
    int fails = 0;           // result to return
    int runs = 0;            // calls that got past the entry

    int operator()(void *user_context, halide_buffer_t *in, float k, halide_buffer_t *out) {
        const bool planned = entry == Entry::planned;
        if (planned) {
            if (int r = harena_pipeline_enter(user_context, "fake", nullptr, 256, 256, traits, 256)) {
                return r;
            }
        } else if (entry == Entry::declared) {
            if (int r = harena_pipeline_declare(user_context, traits)) {
                return r;
            }
        }
        runs++;
        if (allocates) {
            uint64_t address = 0;
            (void)harena_alloc(static_cast<harena_arena *>(user_context), 64, "scratch", &address);
        }
        float *src = reinterpret_cast<float *>(in->device), *dst = reinterpret_cast<float *>(out->device);
        if (src != nullptr && dst != nullptr) {  // a buffer without device memory gets none here
            launch_kernel([src, dst, k] { *dst = *src * k; });
            out->set_device_dirty(true);  // as the pipeline's host code marks its output
        }
        if (planned) {
            harena_pipeline_exit_as_destructor(user_context,
                                               reinterpret_cast<void *>(harena_pipeline_base(user_context)));
        }
        return fails;
    }
};

// What the cache's notices print while one is alive: the runtime tests
// link no Halide runtime, so report_notice writes to stderr.
struct PrintKept {
    PrintKept() {
        testing::internal::CaptureStderr();
    }
    ~PrintKept() {
        (void)printed();
    }
    const std::string &printed() {
        if (!taken) {
            text = testing::internal::GetCapturedStderr();
            taken = true;
        }
        return text;
    }
    std::string text;
    bool taken = false;
};

size_t occurrences(const std::string &text, const std::string &part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        n++;
    }
    return n;
}

FakePipeline *current = nullptr;
int call_current(void *uc, halide_buffer_t *in, float k, halide_buffer_t *out) {
    return (*current)(uc, in, k, out);
}

class GraphCache : public ::testing::Test {
protected:
    void SetUp() override {
        current = &pipeline;
        harena_cuda_binding binding{};
        binding.stream = &stream_stand_in;
        ASSERT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
    }

    // No fallback without a cause, in every test.
    void TearDown() override {
        const harena::GraphCache::Stats s = graphs.stats();
        for (int reason = 0; reason < HARENA_GRAPH_FALLBACK_REASONS; reason++) {
            EXPECT_EQ(s.fallbacks[reason] != 0, !graphs.fallback_cause(reason).empty())
                << harena_graph_fallback_name(reason) << ": " << s.fallbacks[reason] << " fallbacks, cause '"
                << graphs.fallback_cause(reason) << "'";
        }
    }

    // One call through the cache with new input `x`; checks the output.
    int run(float x, float k) {
        in.value = x;
        out.value = -1;  // poisoned: a call that did nothing is seen
        out.buf.set_device_dirty(false);
        const int result = graphs.run(call_current, &in.buf, k, &out.buf);
        EXPECT_EQ(out.value, result == 0 ? x * k : -1) << "x " << x << ", k " << k;
        return graphs.last_outcome();
    }

    static harena::Options growing() {
        harena::Options o;
        o.grow = true;
        return o;
    }

    FakeBackendInstalled backend;
    int stream_stand_in = 0;
    harena::Arena arena = harena::Arena::host(1 << 16, growing());
    harena::GraphCache graphs{arena, 2};
    FakePipeline pipeline;
    DeviceFloat in, out;
};

}  // namespace

TEST_F(GraphCache, TheFirstCallRunsTheSecondIsCapturedAndLaterOnesReplay) {
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_CAPTURED);
    for (float x : {5.0f, 7.0f, 11.0f}) {
        EXPECT_EQ(run(x, 3), HARENA_GRAPH_REPLAYED) << "replays read the input as it is now";
    }
    EXPECT_EQ(pipeline.runs, 2) << "replays do not call the pipeline";
    EXPECT_TRUE(out.buf.device_dirty()) << "a replay marks the outputs as the pipeline would";
    EXPECT_FALSE(in.buf.device_dirty());
    const auto s = graphs.stats();
    EXPECT_EQ(s.calls, 5u);
    EXPECT_EQ(s.ordinary, 1u);
    EXPECT_EQ(s.captures, 1u);
    EXPECT_EQ(s.replays, 3u);
    EXPECT_EQ(s.misses, 1u);
    EXPECT_EQ(arena.stats().frame_depth, 0u);
}

TEST_F(GraphCache, AnotherScalarOrAnotherBufferIsAnotherGraph) {
    run(1, 3);
    run(1, 3);
    EXPECT_EQ(run(1, 4), HARENA_GRAPH_RAN) << "k is part of the key";
    DeviceFloat other;
    in.value = 2;
    EXPECT_EQ(graphs.run(call_current, &in.buf, 3.0f, &other.buf), 0);
    EXPECT_EQ(graphs.last_outcome(), HARENA_GRAPH_RAN) << "the output's device address is part of the key";
    EXPECT_EQ(other.value, 6);
    out.dim.extent = 2;  // the same memory seen with another shape
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    EXPECT_EQ(graphs.stats().misses, 4u);
}

TEST_F(GraphCache, TheLeastRecentlyUsedGraphGoesFirstAndNoneLeaks) {
    for (float k : {1.0f, 2.0f}) {
        run(1, k);
        run(1, k);
    }
    EXPECT_EQ(run(1, 1), HARENA_GRAPH_REPLAYED);  // k = 2 is now the least recent
    run(1, 5);                                    // a third key: evicts k = 2
    EXPECT_EQ(run(1, 1), HARENA_GRAPH_REPLAYED);
    EXPECT_EQ(run(1, 2), HARENA_GRAPH_RAN);
    EXPECT_EQ(graphs.stats().evictions, 1u);
    EXPECT_EQ(fake.graphs_made, 2);
}

TEST_F(GraphCache, InputsOnTheHostAreTheCallersToCopy) {
    run(1, 3);
    in.buf.set_host_dirty(true);  // written on the host, not uploaded
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_ARGUMENT_ON_HOST], 2u);
    in.buf.set_host_dirty(false);
    DeviceFloat no_device;
    no_device.buf.device = 0;  // the pipeline would allocate it during the call
    in.value = 1;
    EXPECT_EQ(graphs.run(call_current, &in.buf, 3.0f, &no_device.buf), 0);
    EXPECT_EQ(graphs.last_outcome(), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_ARGUMENT_ON_HOST], 3u);
    EXPECT_EQ(graphs.stats().captures, 0u);
}

TEST_F(GraphCache, WithoutAStreamEveryCallIsOrdinary) {
    ASSERT_EQ(harena_set_cuda_binding(arena.get(), nullptr), HARENA_OK);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(run(1, 3), HARENA_GRAPH_FELL_BACK);
    }
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NO_STREAM], 3u);
}

TEST_F(GraphCache, APipelineThatDeclaresHostWorkIsNeverCapturedAndDoesNotRunDuringTheAttempt) {
    pipeline.traits = 0;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(pipeline.runs, 2) << "the attempt stopped at the entry; the fallback ran";
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK) << "not attempted again";
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 2u);
    EXPECT_EQ(fake.graphs_made, 1);
    EXPECT_EQ(fake.graphs_destroyed, 1);
    EXPECT_EQ(arena.stats().frame_depth, 0u);
}

TEST_F(GraphCache, ACallThatNeverEntersTheArenaIsNotPlanned) {
    pipeline.entry = Entry::none;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NOT_PLANNED], 1u);
}

TEST_F(GraphCache, APipelineThatPlansNothingAndDeclaresItselfCapturableReplays) {
    pipeline.entry = Entry::declared;
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_CAPTURED);
    EXPECT_EQ(run(5, 3), HARENA_GRAPH_REPLAYED);
    EXPECT_EQ(run(7, 4), HARENA_GRAPH_RAN) << "the same keys as a planned pipeline's";
    EXPECT_EQ(pipeline.runs, 3);
    EXPECT_TRUE(out.buf.device_dirty());
    EXPECT_EQ(arena.stats().frame_depth, 0u);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
}

TEST_F(GraphCache, APipelineThatPlansNothingButDeclaresHostWorkFallsBackAsNotCapturable) {
    pipeline.entry = Entry::declared;
    pipeline.traits = 0;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(pipeline.runs, 2) << "the attempt stopped at the declaration; the fallback ran";
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 2u);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NOT_PLANNED], 0u);
}

TEST_F(GraphCache, AnAllocationDuringTheCaptureRefusesTheGraph) {
    pipeline.allocates = true;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_ALLOCATED], 1u);
}

TEST_F(GraphCache, AnInvalidatedCaptureFallsBackAndIsNotRetried) {
    run(1, 3);
    fake.fail_end = true;
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_CAPTURE_FAILED], 2u);
}

TEST_F(GraphCache, AFailedCaptureNamesTheDriverCallItsErrorAndThePipelineAndIsNoticedOnce) {
    PrintKept print;
    run(1, 3);
    fake.fail_end = true;
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK);
    const std::string cause = graphs.fallback_cause(HARENA_GRAPH_CAPTURE_FAILED);
    EXPECT_NE(cause.find("cuStreamEndCapture returned"), std::string::npos) << cause;
    EXPECT_NE(cause.find("(901)"), std::string::npos) << cause;
    EXPECT_NE(cause.find("pipeline 'fake'"), std::string::npos) << cause;
    const std::string &printed = print.printed();
    EXPECT_EQ(occurrences(printed, "a call ran as an ordinary call (capture failed): " + cause), 1u) << printed;
    EXPECT_TRUE(graphs.fallback_cause(HARENA_GRAPH_NOT_CAPTURABLE).empty());
}

TEST_F(GraphCache, EachReasonKeepsItsLatestCause) {
    PrintKept print;
    in.buf.set_host_dirty(true);
    run(1, 3);
    EXPECT_NE(graphs.fallback_cause(HARENA_GRAPH_ARGUMENT_ON_HOST).find("buffer argument 0's host copy is newer"),
              std::string::npos);
    in.buf.set_host_dirty(false);
    out.buf.set_host_dirty(true);
    run(1, 3);
    EXPECT_NE(graphs.fallback_cause(HARENA_GRAPH_ARGUMENT_ON_HOST).find("buffer argument 1's host copy is newer"),
              std::string::npos);
    EXPECT_EQ(occurrences(print.printed(), "(argument on host)"), 1u) << print.printed();
}

TEST_F(GraphCache, ARefusedPipelineIsNamedWithWhatItDeclared) {
    pipeline.traits = 0;
    run(1, 3);
    run(2, 3);
    const std::string cause = graphs.fallback_cause(HARENA_GRAPH_NOT_CAPTURABLE);
    EXPECT_NE(cause.find("pipeline 'fake' declared itself not capturable"), std::string::npos) << cause;
}

TEST_F(GraphCache, TheCauseIsCopiedTruncatedAndABadReasonIsAnError) {
    run(1, 3);
    fake.fail_end = true;
    run(2, 3);
    const std::string cause = graphs.fallback_cause(HARENA_GRAPH_CAPTURE_FAILED);
    char text[12];
    EXPECT_EQ(harena_graph_fallback_cause(graphs.get(), HARENA_GRAPH_CAPTURE_FAILED, text, sizeof text),
              static_cast<int>(cause.size()));
    EXPECT_EQ(std::string(text), cause.substr(0, sizeof text - 1));
    EXPECT_EQ(harena_graph_fallback_cause(graphs.get(), HARENA_GRAPH_FALLBACK_REASONS, text, sizeof text),
              HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(harena_last_error()).find("is not an enum harena_graph_fallback"), std::string::npos);
    EXPECT_EQ(harena_graph_fallback_cause(nullptr, 0, text, sizeof text), HARENA_ERROR_INVALID_ARGUMENT);
}

TEST_F(GraphCache, APipelineErrorDuringTheCaptureIsReturnedAndTheNextCallTriesAgain) {
    run(1, 3);
    pipeline.fails = -7;
    EXPECT_EQ(graphs.run(call_current, &in.buf, 3.0f, &out.buf), -7);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_PIPELINE_FAILED], 1u);
    pipeline.fails = 0;
    EXPECT_EQ(run(4, 3), HARENA_GRAPH_CAPTURED);
}

TEST_F(GraphCache, ARegionThatGrewInvalidatesItsGraphs) {
    run(1, 3);
    run(1, 3);
    ASSERT_EQ(harena_pipeline_enter(arena.get(), "big", nullptr, 1 << 20, 1 << 20, 0, 256), HARENA_OK);
    harena_pipeline_exit_as_destructor(arena.get(), reinterpret_cast<void *>(harena_pipeline_base(arena.get())));
    ASSERT_EQ(arena.stats().grows, 1u);
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN) << "intermediates moved: the graph would write the old region";
    EXPECT_EQ(graphs.stats().invalidated, 1u);
    EXPECT_EQ(fake.graphs_destroyed, 1);
}

TEST_F(GraphCache, InGuardModeCallsAreNeverCapturedBecauseTheBandsAreCopiedAroundEachSlice) {
    harena::Options guarded;
    guarded.guard = true;
    harena::Arena guarded_arena = harena::Arena::host(1 << 16, guarded);
    harena_cuda_binding binding{};
    binding.stream = &stream_stand_in;
    ASSERT_EQ(harena_set_cuda_binding(guarded_arena.get(), &binding), HARENA_OK);
    harena::GraphCache guarded_graphs{guarded_arena, 2};
    for (float x : {1.0f, 2.0f, 3.0f}) {
        in.value = x;
        out.value = -1;
        EXPECT_EQ(guarded_graphs.run(call_current, &in.buf, 3.0f, &out.buf), 0);
        EXPECT_EQ(out.value, x * 3.0f);
        if (x != 1.0f) {  // the first call with a key runs as it is, as always
            EXPECT_EQ(guarded_graphs.last_outcome(), HARENA_GRAPH_FELL_BACK);
        }
    }
    EXPECT_EQ(guarded_graphs.stats().fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 2u);
    EXPECT_EQ(guarded_graphs.stats().replays, 0u);
    EXPECT_EQ(guarded_arena.stats().frame_depth, 0u);
}

// harena_graph_wait: a replay's own signal, or the stream.

TEST_F(GraphCache, AWaitAfterAGraphReadsItsSignalAndAfterAnOrdinaryCallWaitsOnTheStream) {
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    graphs.wait();
    EXPECT_EQ(fake.synchronizes, 1) << "an ordinary call writes no signal";
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_CAPTURED);
    graphs.wait();
    for (float x : {5.0f, 7.0f}) {
        EXPECT_EQ(run(x, 3), HARENA_GRAPH_REPLAYED);
        graphs.wait();
    }
    EXPECT_EQ(fake.synchronizes, 1) << "the captured graph and its replays end with the signal";
    EXPECT_EQ(fake.signals_made, 1) << "one signal for all of the cache's graphs";
}

TEST_F(GraphCache, AWaitForAGraphStillRunningWaitsOnTheStreamOnceTheSignalIsLate) {
    run(1, 3);
    graphs.wait();  // the capture below ends with the signal
    run(2, 3);
    fake.defer_launches = true;  // the GPU has not run it yet
    in.value = 5;
    out.value = -1;
    ASSERT_EQ(graphs.run(call_current, &in.buf, 3.0f, &out.buf), 0);
    EXPECT_EQ(graphs.last_outcome(), HARENA_GRAPH_REPLAYED);
    EXPECT_EQ(out.value, -1);
    graphs.wait();
    EXPECT_EQ(out.value, 15) << "the wait returned before the replay had run";
    EXPECT_EQ(fake.synchronizes, 2) << "one after the ordinary call, one once the replay's signal was late";
}

TEST_F(GraphCache, WithoutASignalEveryWaitIsOnTheStream) {
    fake.fail_signal_create = true;
    for (int expected : {HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED}) {
        EXPECT_EQ(run(2, 3), expected);
        graphs.wait();
    }
    EXPECT_EQ(fake.synchronizes, 3);
    EXPECT_EQ(fake.signals_made, 0);
}

TEST_F(GraphCache, ACacheNeverWaitedOnCapturesItsGraphsWithoutTheSignal) {
    for (int expected : {HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED}) {
        EXPECT_EQ(run(2, 3), expected);
    }
    EXPECT_EQ(fake.signals_made, 0) << "no graph of a cache nobody waits on pays for the kernel";
    graphs.wait();
    EXPECT_EQ(fake.synchronizes, 1) << "the graph captured before the first wait has no signal to read";
    EXPECT_EQ(run(2, 4), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 4), HARENA_GRAPH_CAPTURED);
    graphs.wait();
    EXPECT_EQ(fake.signals_made, 1) << "captures after the first wait end with the signal";
    EXPECT_EQ(fake.synchronizes, 1);
}

TEST_F(GraphCache, ACacheGoesOnlyAfterItsGraphsHaveWrittenTheSignal) {
    {
        harena::GraphCache local{arena, 2};
        in.value = 2;
        EXPECT_EQ(local.run(call_current, &in.buf, 3.0f, &out.buf), 0);
        local.wait();  // after the ordinary first call: on the stream; later captures end with the signal
        for (int i = 0; i < 2; i++) {
            EXPECT_EQ(local.run(call_current, &in.buf, 3.0f, &out.buf), 0);
            local.wait();
        }
        EXPECT_EQ(fake.synchronizes, 1);
        fake.defer_launches = true;
        EXPECT_EQ(local.run(call_current, &in.buf, 4.0f, &out.buf), 0);  // another key: ordinary
        EXPECT_EQ(local.run(call_current, &in.buf, 3.0f, &out.buf), 0);
        EXPECT_EQ(local.last_outcome(), HARENA_GRAPH_REPLAYED);
        EXPECT_EQ(fake.queued.size(), 1u);
    }
    EXPECT_EQ(fake.synchronizes, 2) << "destroyed while a graph would still write the signal";
    EXPECT_TRUE(fake.queued.empty());
    EXPECT_EQ(fake.signals_destroyed, 1);
}

TEST_F(GraphCache, AWaitWithoutAStreamOrACacheIsAnErrorThatSaysWhatToDo) {
    EXPECT_EQ(harena_graph_wait(nullptr), HARENA_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(harena_set_cuda_binding(arena.get(), nullptr), HARENA_OK);
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_FELL_BACK);
    harena_graph_cache *raw = nullptr;
    ASSERT_EQ(harena_graph_cache_create(arena.get(), 1, &raw), HARENA_OK);
    EXPECT_EQ(harena_graph_wait(raw), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(harena_last_error()).find("halide_device_sync"), std::string::npos) << harena_last_error();
    EXPECT_EQ(harena_graph_cache_destroy(raw), HARENA_OK);
}
