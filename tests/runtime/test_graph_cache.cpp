// The graph cache's keying, replacement and fallbacks, with a stand-in
// backend: a "kernel" launched while the stream is captured is recorded in the
// graph instead of run, and a graph launch runs what it recorded. A fake
// planned pipeline enters the arena as the pass's code does.
#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

#include "graph_backend.h"
#include "graph_host_blocks.h"
#include "harena/graph.hpp"
#include "host_arena.h"

using harena_test::HostArena;

namespace {

// The stand-in driver.
struct FakeGraph {
    std::vector<std::function<void()>> kernels;
    std::vector<const void *> copy_sources;  // host memory its copies read, at launch
};
struct FakeDriver {
    bool capturing = false;
    bool fail_end = false;  // the next end_capture reports an invalidated capture
    FakeGraph *recording = nullptr;
    int graphs_made = 0, graphs_destroyed = 0, launches = 0;
};
FakeDriver fake;

void launch_kernel(std::function<void()> kernel) {
    if (fake.capturing) {
        fake.recording->kernels.push_back(std::move(kernel));
    } else {
        kernel();
    }
}

// A host-to-device copy: captured, it reads `src` when the graph is launched.
void launch_copy(float *dst, const float *src) {
    if (fake.capturing) {
        fake.recording->copy_sources.push_back(src);
    }
    launch_kernel([dst, src] { *dst = *src; });
}

const harena::detail::GraphBackend kFakeBackend = {
    [](void *) {
        fake.capturing = true;
        fake.recording = new FakeGraph;
        return 0;
    },
    [](void *, void **graph) {
        fake.capturing = false;
        if (fake.fail_end) {
            fake.fail_end = false;
            delete fake.recording;
            *graph = nullptr;
            return 901;  // as cudaErrorStreamCaptureInvalidated
        }
        *graph = fake.recording;
        fake.graphs_made++;
        return 0;
    },
    [](void *graph, void **exec) {
        *exec = graph;
        return 0;
    },
    [](void *exec, void *) {
        fake.launches++;
        for (auto &k : static_cast<FakeGraph *>(exec)->kernels) {
            k();
        }
        return 0;
    },
    [](void *graph, void *exec) {
        delete static_cast<FakeGraph *>(graph != nullptr ? graph : exec);
        fake.graphs_destroyed++;
    },
};

// Device memory stands in as host memory; the buffers are dense floats.
struct DeviceFloat {
    DeviceFloat() {
        dim = halide_dimension_t{0, 1, 1, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 1;
        buf.dim = &dim;
        buf.device = reinterpret_cast<uint64_t>(&value);
        buf.device_interface = harena_test::dummy_interface();
    }
    float value = 0;
    halide_dimension_t dim;
    halide_buffer_t buf{};
};

// A planned pipeline as the pass emits it: enter, kernels, exit.
struct FakePipeline {
    uint32_t traits = HARENA_PIPELINE_CAPTURABLE;
    bool planned = true;
    bool allocates = false;  // bumps an unplanned allocation in its frame
    int fails = 0;           // result to return
    int runs = 0;            // calls that got past the entry

    int operator()(void *user_context, halide_buffer_t *in, float k, halide_buffer_t *out) {
        if (planned) {
            if (int r = harena_pipeline_enter(user_context, "fake", nullptr, 256, 256, traits, 256)) {
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

// Pinned host memory, counted.
struct FakePinned {
    int allocated = 0, freed = 0;
};
FakePinned pinned;

const harena::detail::PinnedHostBackend kFakePinned = {
    [](size_t bytes, void **host) {
        *host = std::malloc(bytes);
        pinned.allocated++;
        return 0;
    },
    [](void *host) {
        std::free(host);
        pinned.freed++;
    },
    [](void *graph, harena::detail::CopySource *sources, size_t capacity, size_t *count) {
        const auto &copies = static_cast<FakeGraph *>(graph)->copy_sources;
        *count = copies.size();
        for (size_t i = 0; i < copies.size() && i < capacity; i++) {
            sources[i] = harena::detail::CopySource{copies[i], true};
        }
        return 0;
    },
};

// Outside a capture a table's host part is Halide's (halide_malloc); here one
// the test owns.
float ordinary_host_table = 0;
const halide_device_interface_t *table_interface() {
    static halide_device_interface_t iface = [] {
        halide_device_interface_t i{};
        i.device_and_host_malloc = [](void *, halide_buffer_t *buf, const halide_device_interface_t *) {
            buf->host = reinterpret_cast<uint8_t *>(&ordinary_host_table);
            return 0;
        };
        return i;
    }();
    return &iface;
}

// A planned pipeline with a host stage that tabulates from the scalar k alone
// (a key-host buffer, as the pass emits it): out = in + 10 k, the table
// uploaded before the kernel that reads it.
struct TablePipeline {
    float device_table = 0;
    bool upload = true;  // false: the stage's result never reaches the graph
    int operator()(void *user_context, halide_buffer_t *in, float k, halide_buffer_t *out) {
        if (int r = harena_pipeline_enter(user_context, "table", nullptr, 256, 256, HARENA_PIPELINE_CAPTURABLE, 256)) {
            return r;
        }
        halide_dimension_t dim{0, 1, 1, 0};
        halide_buffer_t table{};
        table.type = halide_type_of<float>();
        table.dimensions = 1;
        table.dim = &dim;
        table.device = reinterpret_cast<uint64_t>(&device_table);
        if (int r = harena_key_host_malloc(user_context, &table, table_interface())) {
            return r;
        }
        float *host = reinterpret_cast<float *>(table.host);
        *host = 10 * k;  // the host stage
        if (upload) {
            launch_copy(&device_table, host);
        } else {
            device_table = *host;  // as a copy outside the capture would
        }
        float *src = reinterpret_cast<float *>(in->device), *dst = reinterpret_cast<float *>(out->device);
        const float *t = &device_table;
        launch_kernel([src, dst, t] { *dst = *src + *t; });
        out->set_device_dirty(true);
        (void)harena_planned_host_free(user_context, &table);
        harena_pipeline_exit_as_destructor(user_context, reinterpret_cast<void *>(harena_pipeline_base(user_context)));
        return 0;
    }
};

FakePipeline *current = nullptr;
int call_current(void *uc, halide_buffer_t *in, float k, halide_buffer_t *out) {
    return (*current)(uc, in, k, out);
}

// The stand-in backend for as long as it lives. The fixture holds one before
// its cache, so that the cache's graphs, destroyed with it, go back to the
// stand-in (members are destroyed in the reverse order of their declaration).
struct FakeBackendInstalled {
    FakeBackendInstalled() {
        fake = FakeDriver{};
        harena::detail::set_graph_backend(&kFakeBackend);
    }
    ~FakeBackendInstalled() {
        harena::detail::set_graph_backend(nullptr);
    }
    FakeBackendInstalled(const FakeBackendInstalled &) = delete;
    FakeBackendInstalled &operator=(const FakeBackendInstalled &) = delete;
};

class GraphCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        current = &pipeline;
        harena_cuda_binding binding{};
        binding.stream = &stream_stand_in;
        ASSERT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
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

TEST_F(GraphCacheTest, TheFirstCallRunsTheSecondIsCapturedAndLaterOnesReplay) {
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

TEST_F(GraphCacheTest, AnotherScalarOrAnotherBufferIsAnotherGraph) {
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

TEST_F(GraphCacheTest, TheLeastRecentlyUsedGraphGoesFirstAndNoneLeaks) {
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

TEST_F(GraphCacheTest, InputsOnTheHostAreTheCallersToCopy) {
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

TEST_F(GraphCacheTest, WithoutAStreamEveryCallIsOrdinary) {
    ASSERT_EQ(harena_set_cuda_binding(arena.get(), nullptr), HARENA_OK);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(run(1, 3), HARENA_GRAPH_FELL_BACK);
    }
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NO_STREAM], 3u);
}

TEST_F(GraphCacheTest, APipelineThatDeclaresHostWorkIsNeverCapturedAndDoesNotRunDuringTheAttempt) {
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

TEST_F(GraphCacheTest, ACallThatNeverEntersTheArenaIsNotPlanned) {
    pipeline.planned = false;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_NOT_PLANNED], 1u);
}

TEST_F(GraphCacheTest, AnAllocationDuringTheCaptureRefusesTheGraph) {
    pipeline.allocates = true;
    run(1, 3);
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_ALLOCATED], 1u);
}

TEST_F(GraphCacheTest, AnInvalidatedCaptureFallsBackAndIsNotRetried) {
    run(1, 3);
    fake.fail_end = true;
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_CAPTURE_FAILED], 2u);
}

TEST_F(GraphCacheTest, APipelineErrorDuringTheCaptureIsReturnedAndTheNextCallTriesAgain) {
    run(1, 3);
    pipeline.fails = -7;
    EXPECT_EQ(graphs.run(call_current, &in.buf, 3.0f, &out.buf), -7);
    EXPECT_EQ(graphs.stats().fallbacks[HARENA_GRAPH_PIPELINE_FAILED], 1u);
    pipeline.fails = 0;
    EXPECT_EQ(run(4, 3), HARENA_GRAPH_CAPTURED);
}

TEST_F(GraphCacheTest, ARegionThatGrewInvalidatesItsGraphs) {
    run(1, 3);
    run(1, 3);
    ASSERT_EQ(harena_pipeline_enter(arena.get(), "big", nullptr, 1 << 20, 1 << 20, 0, 256), HARENA_OK);
    harena_pipeline_exit_as_destructor(arena.get(), reinterpret_cast<void *>(harena_pipeline_base(arena.get())));
    ASSERT_EQ(arena.stats().grows, 1u);
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN) << "intermediates moved: the graph would write the old region";
    EXPECT_EQ(graphs.stats().invalidated, 1u);
    EXPECT_EQ(fake.graphs_destroyed, 1);
}

TEST_F(GraphCacheTest, InGuardModeCallsAreNeverCapturedBecauseTheBandsAreCopiedAroundEachSlice) {
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

namespace {

TablePipeline *current_table = nullptr;
int call_table(void *uc, halide_buffer_t *in, float k, halide_buffer_t *out) {
    return (*current_table)(uc, in, k, out);
}

struct PinnedInstalled {
    PinnedInstalled() {
        pinned = FakePinned{};
        harena::detail::set_pinned_host_backend(&kFakePinned);
    }
    ~PinnedInstalled() {
        harena::detail::set_pinned_host_backend(nullptr);
    }
    PinnedInstalled(const PinnedInstalled &) = delete;
    PinnedInstalled &operator=(const PinnedInstalled &) = delete;
};

// Declared before the cache it outlives (see FakeBackendInstalled).
class GraphCacheHostTableTest : public ::testing::Test {
protected:
    void SetUp() override {
        current_table = &table;
        harena_cuda_binding binding{};
        binding.stream = &stream_stand_in;
        ASSERT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
    }

    int run(float x, float k) {
        in.value = x;
        out.value = -1;
        out.buf.set_device_dirty(false);
        const int result = graphs->run(call_table, &in.buf, k, &out.buf);
        EXPECT_EQ(result, 0);
        EXPECT_EQ(out.value, x + 10 * k) << "x " << x << ", k " << k;
        return graphs->last_outcome();
    }

    FakeBackendInstalled backend;
    PinnedInstalled pinned_installed;
    int stream_stand_in = 0;
    harena::Arena arena = harena::Arena::host(1 << 16);
    std::unique_ptr<harena::GraphCache> graphs = std::make_unique<harena::GraphCache>(arena, 2);
    TablePipeline table;
    DeviceFloat in, out;
};

}  // namespace

// Two keys (k) alternating call by call: each graph replays the upload of
// its own key's table, from a block it owns, which no later call overwrites.
TEST_F(GraphCacheHostTableTest, EachGraphReplaysItsOwnKeysTableWithTwoKeysInterleaved) {
    const std::vector<int> expected = {HARENA_GRAPH_RAN, HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED,
                                       HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED,
                                       HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED};
    for (size_t call = 0; call < expected.size(); call++) {
        const float k = call % 2 == 0 ? 2.0f : 3.0f;
        EXPECT_EQ(run(static_cast<float>(call), k), expected[call]) << "call " << call;
    }
    EXPECT_EQ(pinned.allocated, 2) << "one block per captured graph";
    EXPECT_EQ(pinned.freed, 0) << "the blocks live as long as their graphs";
    graphs.reset();
    EXPECT_EQ(pinned.freed, 2) << "and go with them";
}

TEST_F(GraphCacheHostTableTest, AnEvictedGraphFreesItsBlock) {
    run(1, 2);
    run(1, 2);  // captured: one block
    run(1, 3);
    run(1, 3);  // captured: two
    run(1, 4);  // a third key evicts the least recently used graph
    EXPECT_EQ(pinned.allocated, 2);
    EXPECT_EQ(pinned.freed, 1);
}

// A host stage whose result the graph does not copy (the upload ran once,
// outside it): a replay would read a stale table, so the graph is refused.
TEST_F(GraphCacheHostTableTest, ATableNotUploadedInsideTheGraphRefusesTheCapture) {
    table.upload = false;
    EXPECT_EQ(run(1, 2), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs->stats().fallbacks[HARENA_GRAPH_CAPTURE_FAILED], 2u);
    EXPECT_EQ(pinned.allocated, pinned.freed) << "the refused graph's block is freed with it";
}

// Without pinned memory the table would live in memory the call frees.
TEST_F(GraphCacheHostTableTest, WithoutPinnedMemoryTheCallIsNotCaptured) {
    harena::detail::set_pinned_host_backend(nullptr);  // the stand-in graphs have no CUDA behind them
    EXPECT_EQ(run(1, 2), HARENA_GRAPH_RAN);
    EXPECT_EQ(run(2, 2), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(graphs->stats().fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 1u);
}
