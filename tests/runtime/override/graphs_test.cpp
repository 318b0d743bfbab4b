// Pipelines built without the arena feature through the graph cache, with the
// override linked (runtime/override/placed_calls.h): a key's first call
// records the device allocations, its second is captured with each of them
// at the offset the solver gave it, and later calls replay. The device is
// fake_device.h's (device memory is host memory) and the graph driver the
// stand-in of fake_graph_backend.h, so kernels are host functions that a
// capture records and a replay runs.
#include <cstdlib>
#include <vector>

#include "fake_device.h"
#include "fake_graph_backend.h"
#include "harena/graph.hpp"
#include "harena/override.h"

using namespace harena_test;

namespace {

constexpr int kN = 64;  // floats per buffer: 256 bytes, one alignment unit

// A dense float buffer: with device memory (an argument the caller
// allocated) or without (an intermediate the pipeline allocates).
struct Floats {
    explicit Floats(int n, bool with_memory)
        : values(with_memory ? static_cast<size_t>(n) : 0) {
        dim = halide_dimension_t{0, n, 1, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 1;
        buf.dim = &dim;
        if (with_memory) {
            buf.device = reinterpret_cast<uint64_t>(values.data());
            buf.device_interface = fake_device_interface();
        }
    }
    float *device() const {
        return reinterpret_cast<float *>(buf.device);
    }
    std::vector<float> values;
    halide_dimension_t dim;
    halide_buffer_t buf{};
};

// What Halide compiles for out = ((in * k) + 1) * 2 - in with three device
// intermediates and nothing planned: each is allocated through
// halide_device_malloc (user_context NULL, as a pipeline without a
// user_context argument passes) and freed when its last consumer ran, so `a`
// is dead before `c` is allocated while `b` is still alive, which a bump
// allocator cannot reuse.
struct UnplannedPipeline {
    int b_extra = 0;     // floats added to b: an allocation the key does not describe
    bool keeps = false;  // keeps a device buffer past the call (a cache of its own)
    int runs = 0;
    std::vector<uint64_t> addresses;  // of a, b, c in the last run
    Floats kept{kN, false};

    int operator()(halide_buffer_t *in, float k, halide_buffer_t *out) {
        runs++;
        addresses.clear();
        const halide_device_interface_t *iface = fake_device_interface();
        Floats a(kN, false), b(kN + b_extra, false), c(kN, false);
        const float *x = reinterpret_cast<const float *>(in->device);
        float *y = reinterpret_cast<float *>(out->device);
        if (int r = halide_device_malloc(nullptr, &a.buf, iface)) {
            return r;
        }
        launch_kernel([x, k, pa = a.device()] {
            for (int i = 0; i < kN; i++)
                pa[i] = x[i] * k;
        });
        if (int r = halide_device_malloc(nullptr, &b.buf, iface)) {
            return r;
        }
        launch_kernel([pa = a.device(), pb = b.device()] {
            for (int i = 0; i < kN; i++)
                pb[i] = pa[i] + 1;
        });
        addresses.push_back(a.buf.device);
        addresses.push_back(b.buf.device);
        (void)halide_device_free(nullptr, &a.buf);
        if (int r = halide_device_malloc(nullptr, &c.buf, iface)) {
            return r;
        }
        addresses.push_back(c.buf.device);
        launch_kernel([pb = b.device(), pc = c.device()] {
            for (int i = 0; i < kN; i++)
                pc[i] = pb[i] * 2;
        });
        (void)halide_device_free(nullptr, &b.buf);
        launch_kernel([x, y, pc = c.device()] {
            for (int i = 0; i < kN; i++)
                y[i] = pc[i] - x[i];
        });
        (void)halide_device_free(nullptr, &c.buf);
        out->set_device_dirty(true);
        if (keeps && kept.buf.device == 0) {
            if (int r = halide_device_malloc(nullptr, &kept.buf, iface)) {
                return r;
            }
            launch_kernel([y, pk = kept.device()] {
                for (int i = 0; i < kN; i++)
                    pk[i] = y[i];
            });
        }
        return 0;
    }
};

UnplannedPipeline *current = nullptr;
// The cache passes its arena as the first argument; a pipeline built
// without the arena feature takes no user_context and never sees it.
int call_current(void *, halide_buffer_t *in, float k, halide_buffer_t *out) {
    return (*current)(in, k, out);
}

class OverrideGraphs : public ::testing::Test {
protected:
    void SetUp() override {
        current = &pipeline;
        reset_fake_driver();
        harena_cuda_binding binding{};
        binding.stream = &stream_stand_in;
        ASSERT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
    }
    void TearDown() override {
        if (pipeline.kept.buf.device != 0) {
            (void)halide_device_free(nullptr, &pipeline.kept.buf);
        }
    }

    // One call with new input values starting at `first`, the output
    // poisoned; checks every value and returns how the call ran.
    int run(float first, float k) {
        for (int i = 0; i < kN; i++) {
            in.values[static_cast<size_t>(i)] = first + static_cast<float>(i);
            out.values[static_cast<size_t>(i)] = -12345;
        }
        out.buf.set_device_dirty(false);
        EXPECT_EQ(graphs.run(call_current, &in.buf, k, &out.buf), 0);
        for (int i = 0; i < kN; i++) {
            const float x = first + static_cast<float>(i);
            EXPECT_EQ(out.values[static_cast<size_t>(i)], (x * k + 1) * 2 - x) << "element " << i;
        }
        return graphs.last_outcome();
    }

    static harena::Arena device_arena() {
        return harena::Arena::device(fake_device_interface(), 1 << 16);
    }

    FakeBackendInstalled backend;
    int stream_stand_in = 0;
    harena::Arena arena = device_arena();
    harena::GraphCache graphs{arena, 2};
    UnplannedPipeline pipeline;
    Floats in{kN, true}, out{kN, true};
};

}  // namespace

TEST_F(OverrideGraphs, TheFirstCallRecordsTheSecondIsCapturedAtPlacedOffsetsAndLaterOnesReplay) {
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    const std::vector<uint64_t> bumped = pipeline.addresses;
    EXPECT_NE(bumped[2], bumped[0]) << "a bump does not reuse a's bytes while b, allocated after it, lives";
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_CAPTURED);
    EXPECT_EQ(pipeline.addresses[2], pipeline.addresses[0]) << "placed: c takes the bytes of a, dead by then";
    EXPECT_NE(pipeline.addresses[1], pipeline.addresses[0]);
    for (float first : {5.0f, -7.0f, 11.0f}) {
        EXPECT_EQ(run(first, 3), HARENA_GRAPH_REPLAYED) << "replays read the input as it is now";
    }
    EXPECT_EQ(pipeline.runs, 2) << "replays do not call the pipeline";
    EXPECT_TRUE(out.buf.device_dirty()) << "a replay marks the outputs as the pipeline did";
    EXPECT_EQ(run(1, 4), HARENA_GRAPH_RAN) << "k is part of the key";
    EXPECT_EQ(fake_driver().mallocs.load(), 0) << "every allocation came from the arena";
    const auto s = graphs.stats();
    EXPECT_EQ(s.captures, 1u);
    EXPECT_EQ(s.replays, 3u);
    EXPECT_EQ(arena.stats().frame_depth, 0u);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
}

TEST_F(OverrideGraphs, AKeyWhoseAllocationsChangeFallsBackForGoodAndStaysCorrect) {
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    pipeline.b_extra = 16;  // the same key, another size: the key misses what the pipeline reads
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK) << "not attempted again";
    const auto s = graphs.stats();
    EXPECT_EQ(s.fallbacks[HARENA_GRAPH_ALLOCATIONS_CHANGED], 2u);
    EXPECT_EQ(s.captures, 0u);
    EXPECT_EQ(fake.graphs_made, fake.graphs_destroyed) << "the attempt's graph is not kept";
    EXPECT_EQ(pipeline.runs, 4) << "the attempt was captured, not run: the fallback ran it";
    EXPECT_EQ(fake_driver().mallocs.load(), 0) << "fallbacks still take their memory from the arena";
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
}

TEST_F(OverrideGraphs, AnAllocationThatOutlivesTheCallIsNeverCaptured) {
    pipeline.keeps = true;
    EXPECT_EQ(run(1, 3), HARENA_GRAPH_RAN);
    ASSERT_NE(pipeline.kept.buf.device, 0u);
    const uint64_t kept = pipeline.kept.buf.device;
    EXPECT_FALSE(kept >= arena.base() && kept < arena.base() + arena.capacity())
        << "moved out of the call's frame when it popped";
    EXPECT_EQ(pipeline.kept.device()[5], out.values[5]) << "with its contents";
    EXPECT_EQ(run(2, 3), HARENA_GRAPH_FELL_BACK);
    EXPECT_EQ(run(3, 3), HARENA_GRAPH_FELL_BACK);
    const auto s = graphs.stats();
    EXPECT_EQ(s.fallbacks[HARENA_GRAPH_OUTLIVES_CALL], 2u);
    EXPECT_EQ(fake.graphs_made, 0) << "known before any capture";
    EXPECT_EQ(arena.stats().evictions, 1u);
}

// As the pass's code for a planned pipeline: enters its frame, takes its
// one intermediate at the frame's base, leaves at the end.
int planned_call(void *user_context, halide_buffer_t *in, float k, halide_buffer_t *out) {
    if (int r = harena_pipeline_enter(user_context, "planned", fake_device_interface(), 256, 256,
                                      HARENA_PIPELINE_CAPTURABLE, 256)) {
        return r;
    }
    auto *t = reinterpret_cast<float *>(harena_pipeline_base(user_context));
    const float *x = reinterpret_cast<const float *>(in->device);
    float *y = reinterpret_cast<float *>(out->device);
    launch_kernel([x, k, t] {
        for (int i = 0; i < kN; i++)
            t[i] = x[i] * k + 1;
    });
    launch_kernel([x, y, t] {
        for (int i = 0; i < kN; i++)
            y[i] = t[i] * 2 - x[i];
    });
    out->set_device_dirty(true);
    harena_pipeline_exit_as_destructor(user_context, t);
    return 0;
}

TEST_F(OverrideGraphs, APipelineBuiltWithTheArenaFeatureReplaysAsWithoutTheOverride) {
    for (int call = 0; call < 5; call++) {
        for (int i = 0; i < kN; i++) {
            in.values[static_cast<size_t>(i)] = static_cast<float>(call + i);
            out.values[static_cast<size_t>(i)] = -12345;
        }
        ASSERT_EQ(graphs.run(planned_call, &in.buf, 3.0f, &out.buf), 0);
        EXPECT_EQ(graphs.last_outcome(), call == 0 ? HARENA_GRAPH_RAN :
                                         call == 1 ? HARENA_GRAPH_CAPTURED :
                                                     HARENA_GRAPH_REPLAYED);
        for (int i = 0; i < kN; i++) {
            const float x = static_cast<float>(call + i);
            ASSERT_EQ(out.values[static_cast<size_t>(i)], (x * 3 + 1) * 2 - x) << "call " << call << ", element " << i;
        }
    }
    EXPECT_EQ(arena.stats().frame_depth, 0u);
    EXPECT_EQ(fake_driver().mallocs.load(), 0);
}

TEST_F(OverrideGraphs, EveryFallbackReasonHasAName) {
    EXPECT_STREQ(harena_graph_fallback_name(HARENA_GRAPH_OUTLIVES_CALL), "allocation outlives the call");
    EXPECT_STREQ(harena_graph_fallback_name(HARENA_GRAPH_ALLOCATIONS_CHANGED), "allocations changed");
}
