// The corpus built for CUDA, driven as RunGen drives a pipeline: host
// buffers in and out (the test allocates no device memory itself), the same
// buffers for every call, new input values written before each call (host
// dirty) and the outputs copied back after it. Each pipeline and size runs
// three ways, each on its own buffers holding the same values:
//   (a) the plain build outside any scope: Halide's own allocator, the reference;
//   (b) the plain build inside a harena::Scope per call, on a device arena,
//       through the halide_device_malloc override;
//   (c) the arena build, called with a device arena.
// On every call (b) and (c) must equal (a) bit for bit, and
//   - the buffers a driver passes in keep one device allocation, made once by
//     Halide's allocator, never carved from a call's frame (frames pop at the
//     end of the call, the buffers live on);
//   - from the second call on no allocation reaches the driver;
//   - every frame is popped, and the runtime (arenas in debug mode, which
//     report allocations still alive when their frame pops) reports nothing.
// Skips where no CUDA device is usable.
#include "corpus_pipelines.h"

#include "corpus_bilateral_grid_cuda_arena.h"
#include "corpus_bilateral_grid_cuda_plain.h"
#include "corpus_camera_pipe_cuda_arena.h"
#include "corpus_camera_pipe_cuda_plain.h"
#include "corpus_histogram_equalize_cuda_arena.h"
#include "corpus_histogram_equalize_cuda_plain.h"
#include "corpus_iir_blur_cuda_arena.h"
#include "corpus_iir_blur_cuda_plain.h"
#include "corpus_interpolate_cuda_arena.h"
#include "corpus_interpolate_cuda_plain.h"
#include "corpus_local_laplacian_cuda_arena.h"
#include "corpus_local_laplacian_cuda_plain.h"
#include "corpus_nl_means_cuda_arena.h"
#include "corpus_nl_means_cuda_plain.h"
#include "corpus_stencil_chain_cuda_arena.h"
#include "corpus_stencil_chain_cuda_plain.h"

#include "HalideRuntimeCuda.h"
#include "cuda_driver.h"
#include "harena/arena.hpp"
#include "harena/override.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <tuple>

using namespace harena_corpus;

namespace {

const Pipeline kPipelines[] = {
    entry<LocalLaplacian<corpus_local_laplacian_cuda_plain, corpus_local_laplacian_cuda_arena>>("local_laplacian"),
    entry<BilateralGrid<corpus_bilateral_grid_cuda_plain, corpus_bilateral_grid_cuda_arena>>("bilateral_grid"),
    entry<HistogramEqualize<corpus_histogram_equalize_cuda_plain, corpus_histogram_equalize_cuda_arena>>(
        "histogram_equalize"),
    entry<IirBlur<corpus_iir_blur_cuda_plain, corpus_iir_blur_cuda_arena>>("iir_blur"),
    entry<NlMeans<corpus_nl_means_cuda_plain, corpus_nl_means_cuda_arena>>("nl_means"),
    entry<Interpolate<corpus_interpolate_cuda_plain, corpus_interpolate_cuda_arena>>("interpolate"),
    entry<StencilChain<corpus_stencil_chain_cuda_plain, corpus_stencil_chain_cuda_arena>>("stencil_chain"),
    entry<CameraPipe<corpus_camera_pipe_cuda_plain, corpus_camera_pipe_cuda_arena>>("camera_pipe"),
};

// Each device arena: room for every intermediate of the largest run (twice
// the estimates; nl_means' patch distances for one row of its search window
// are the largest, about 0.5 GiB). A run that needed more would fail with
// an overflow message, not pass quietly.
constexpr uint64_t kDeviceArenaBytes = 4ull << 30;

std::string joined(const std::vector<std::string> &messages) {
    std::string out;
    for (const std::string &m : messages) {
        out += "\n  " + m;
    }
    return out;
}

// What one call did, counted around it.
struct CallCounts {
    int code = 0;
    uint64_t arena_allocations = 0;    // device allocations the override carved from an arena
    uint64_t default_allocations = 0;  // ... and passed to Halide's allocator
    uint64_t default_frees = 0;
    int driver_allocations = 0;        // cuMemAlloc calls
    int driver_frees = 0;              // cuMemFree calls
};

CallCounts counted(const std::function<int()> &call) {
    harena_override_counters before, after;
    harena_override_get_counters(&before);
    harena_test::reset_cuda_driver_counts();
    CallCounts c;
    c.code = call();
    harena_override_get_counters(&after);
    c.arena_allocations = after.device_arena_allocations - before.device_arena_allocations;
    c.default_allocations = after.device_default_allocations - before.device_default_allocations;
    c.default_frees = after.device_default_frees - before.device_default_frees;
    c.driver_allocations = harena_test::cuda_driver_counts().allocations;
    c.driver_frees = harena_test::cuda_driver_counts().frees;
    return c;
}

// The device handles of a workload's argument buffers (0: none).
std::vector<uint64_t> device_handles(Workload &w) {
    std::vector<uint64_t> handles;
    for (auto *list : {&w.inputs, &w.outputs}) {
        for (Buffer<> &b : *list) {
            handles.push_back(b.raw_buffer()->device);
        }
    }
    return handles;
}

class GpuCorpus : public ::testing::TestWithParam<std::tuple<Pipeline, Size>> {
protected:
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        ErrorLog::install();
        (void)ErrorLog::take();
    }

    // The checks (b) and (c) share, for call number `call` of a way whose
    // argument buffers got `first_handles` on its first call.
    static void check_way(const char *way, int call, const CallCounts &c, Workload &ref, Workload &got,
                          const harena::Arena &arena, std::vector<uint64_t> &first_handles) {
        SCOPED_TRACE(std::string(way) + ", call " + std::to_string(call));
        EXPECT_EQ(c.code, 0) << joined(ErrorLog::take());
        ASSERT_EQ(read_back(got), 0) << joined(ErrorLog::take());
        if (c.code == 0) {
            EXPECT_EQ(difference(ref, got), "");
        }
        const std::vector<uint64_t> handles = device_handles(got);
        int on_device = 0;
        for (size_t i = 0; i < handles.size(); i++) {
            if (handles[i] == 0) {
                continue;
            }
            on_device++;
            EXPECT_EQ(harena_find(halide_cuda_device_interface(), handles[i]), nullptr)
                << "argument buffer " << i << " has its device memory in an arena, which a frame pop reclaims";
        }
        if (call == 0) {
            first_handles = handles;
            EXPECT_GT(on_device, 0) << "no argument buffer went to the device";
            EXPECT_EQ(c.default_allocations, (uint64_t)on_device)
                << "the argument buffers' device memory should come from Halide's allocator";
        } else {
            EXPECT_EQ(handles, first_handles) << "argument buffers were given new device memory";
            EXPECT_EQ(c.default_allocations, 0u) << "device memory from Halide's allocator on a later call";
            EXPECT_EQ(c.driver_allocations, 0) << "cuMemAlloc on a later call";
            EXPECT_EQ(c.driver_frees, 0) << "cuMemFree on a later call";
        }
        EXPECT_EQ(c.default_frees, 0u) << "an argument buffer's device memory was freed during the call";
        const harena::Stats stats = arena.stats();
        EXPECT_EQ(stats.frame_depth, 0u);
        EXPECT_EQ(stats.bytes_in_use, 0u);
        EXPECT_EQ(joined(ErrorLog::take()), "") << "the runtime reported errors";
    }
};

TEST_P(GpuCorpus, ScopedAndPlannedMatchHalideOnEveryCall) {
    const Pipeline &p = std::get<0>(GetParam());
    const double scale = std::get<1>(GetParam()).scale;
    const std::string label = std::string(p.name) + "_" + std::get<1>(GetParam()).name;
    harena::Options options;
    options.debug = true;
    harena::Arena scoped_arena = harena::Arena::device(halide_cuda_device_interface(), kDeviceArenaBytes, options);
    harena::Arena planned_arena = harena::Arena::device(halide_cuda_device_interface(), kDeviceArenaBytes, options);
    // Declared after the arenas: the buffers release their device memory first.
    Workload ref = p.make(scale), scoped = p.make(scale), planned = p.make(scale);
    std::vector<Buffer<>> previous;
    std::vector<uint64_t> scoped_handles, planned_handles;
    for (int call = 0; call < kCalls; call++) {
        for (Workload *w : {&ref, &scoped, &planned}) {
            p.write(*w, call);
        }

        // (a) Halide's default allocator.
        ASSERT_EQ(p.plain(ref), 0) << "call " << call << joined(ErrorLog::take());
        ASSERT_EQ(read_back(ref), 0);
        ASSERT_EQ(joined(ErrorLog::take()), "");
        // New inputs give new outputs: a call that did nothing cannot pass.
        for (size_t i = 0; i < previous.size(); i++) {
            EXPECT_NE(difference(previous[i], ref.outputs[i]), "") << "call " << call << ": output " << i << " unchanged";
        }
        previous.clear();
        for (Buffer<> &out : ref.outputs) {
            previous.push_back(out.copy());
        }

        // (b) The plain build, a scope per call.
        const CallCounts b = counted([&] {
            harena::Scope scope(scoped_arena);
            return p.plain(scoped);
        });
        check_way("scoped plain build", call, b, ref, scoped, scoped_arena, scoped_handles);

        // (c) The arena build.
        const CallCounts c = counted([&] { return p.planned(planned_arena.get(), planned); });
        check_way("arena build", call, c, ref, planned, planned_arena, planned_handles);

        std::printf("[ corpus   ] %s call %d: the arena served %llu device allocations in scope, %llu in the "
                    "arena build\n",
                    label.c_str(), call, (unsigned long long)b.arena_allocations,
                    (unsigned long long)c.arena_allocations);
        if (call == kCalls - 1) {
            RecordProperty("scoped_arena_allocations", (int)b.arena_allocations);
            RecordProperty("planned_arena_allocations", (int)c.arena_allocations);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, GpuCorpus, ::testing::Combine(::testing::ValuesIn(kPipelines), ::testing::ValuesIn(kSizes)),
                         [](const auto &info) {
                             return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
