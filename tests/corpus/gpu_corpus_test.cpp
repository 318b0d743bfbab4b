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
//   - the buffers a driver passes in keep one device allocation, made by
//     Halide's allocator on the first call, never carved from a call's frame
//     (frames pop at the end of the call, the buffers live on);
//   - every frame is popped, and the runtime (arenas in debug mode, which
//     report allocations still alive when their frame pops) reports nothing;
//   - in (b), from the second call on, no allocation reaches Halide's
//     allocator or the driver.
//   - in (c), every frame of the arena's host companion is popped, and a
//     pipeline whose plan puts host-only buffers there pushes one frame in
//     it per call (a pipeline without any has none).
// Each call prints how many device allocations the arenas served.
// Skips where no CUDA device is usable.
#include "cuda_corpus.h"
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
    int driver_allocations = 0;  // cuMemAlloc calls
    int driver_frees = 0;        // cuMemFree calls
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

// One way of running a pipeline: its buffers and what each call did.
struct Way {
    const char *name;
    Workload workload;
    std::vector<CallCounts> calls;
    std::vector<uint64_t> first_handles;  // argument buffers' device handles after call 0
};

class GpuCorpus : public ::testing::TestWithParam<std::tuple<Pipeline, Size>> {
protected:
    void SetUp() override {
        if (!harena_test::cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
        ErrorLog::install();
        (void)ErrorLog::take();
    }

    // What (b) and (c) must both show after each call.
    static void check_call(Way &way, const Workload &ref, const harena::Arena &arena) {
        const int call = (int)way.calls.size() - 1;
        const CallCounts &c = way.calls.back();
        SCOPED_TRACE(std::string(way.name) + ", call " + std::to_string(call));
        EXPECT_EQ(c.code, 0) << joined(ErrorLog::take());
        ASSERT_EQ(read_back(way.workload), 0) << joined(ErrorLog::take());
        if (c.code == 0) {
            EXPECT_EQ(difference(ref, way.workload), "");
        }
        const std::vector<uint64_t> handles = device_handles(way.workload);
        for (size_t i = 0; i < handles.size(); i++) {
            if (handles[i] != 0) {
                EXPECT_EQ(harena_find(halide_cuda_device_interface(), handles[i]), nullptr)
                    << "argument buffer " << i << " has its device memory in an arena, where a frame pop reclaims it";
            }
        }
        if (call == 0) {
            way.first_handles = handles;
        } else {
            EXPECT_EQ(handles, way.first_handles) << "argument buffers were given new device memory";
        }
        const harena::Stats stats = arena.stats();
        EXPECT_EQ(stats.frame_depth, 0u);
        EXPECT_EQ(stats.bytes_in_use, 0u);
        EXPECT_EQ(joined(ErrorLog::take()), "") << "the runtime reported errors";
    }

    // New inputs give new outputs: a call that did nothing cannot pass.
    // `previous` holds the last call's outputs, and then this call's.
    static void check_outputs_changed(const Workload &ref, int call, std::vector<Buffer<>> &previous) {
        for (size_t i = 0; i < previous.size(); i++) {
            EXPECT_NE(difference(previous[i], ref.outputs[i]), "")
                << "call " << call << ": output " << i << " unchanged";
        }
        previous.clear();
        for (const Buffer<> &out : ref.outputs) {
            previous.push_back(out.copy());
        }
    }

    // The arena build's host-only buffers lie in the host companion, which
    // has a frame per call, popped; others never create one.
    static void check_host_companion(const Pipeline &p, const harena::Arena &arena, int call) {
        SCOPED_TRACE("(c) arena build, call " + std::to_string(call));
        const harena::Stats host = arena.host_companion_stats();
        if (cuda_corpus_entry(p.name).host_buffers == 0) {
            EXPECT_EQ(host.capacity, 0u) << "a host companion without host buffers planned";
            return;
        }
        EXPECT_GT(host.high_water, 0u);
        EXPECT_EQ(host.frames_pushed, uint64_t(call + 1));
        EXPECT_EQ(host.frame_depth, 0u);
        EXPECT_EQ(host.bytes_in_use, 0u);
    }

    // In a scope, every device allocation of a call but the argument
    // buffers' (on the first call) comes from the arena, and no argument
    // buffer's device memory is freed.
    static void check_scoped_counts(const CallCounts &b, int call) {
        if (call > 0) {
            EXPECT_EQ(b.default_allocations, 0u)
                << "call " << call << ": device memory from Halide's allocator in a scope";
            EXPECT_EQ(b.driver_allocations, 0) << "call " << call << ": cuMemAlloc in a scope";
            EXPECT_EQ(b.driver_frees, 0) << "call " << call << ": cuMemFree in a scope";
        }
        EXPECT_EQ(b.default_frees, 0u) << "call " << call << ": an argument buffer's device memory was freed";
    }

    // The argument buffers' device allocations, counted by the override.
    // Calls 0 and 3 pass the same scalars and sizes, so they allocate the
    // same intermediates: what call 0 took from Halide's allocator beyond
    // call 3 is what the argument buffers took, once.
    static void check_argument_allocations(const Way &way) {
        SCOPED_TRACE(way.name);
        int on_device = 0;
        for (uint64_t h : way.first_handles) {
            on_device += h != 0;
        }
        EXPECT_GT(on_device, 0) << "no argument buffer went to the device";
        const int64_t first = (int64_t)way.calls[0].default_allocations;
        const int64_t same_again = (int64_t)way.calls[3].default_allocations;
        EXPECT_EQ(first - same_again, on_device)
            << "the argument buffers should take their device memory from Halide's allocator on the first call";
    }
};

static_assert(kCalls >= 4, "check_argument_allocations compares call 0 with call 3");

TEST_P(GpuCorpus, ScopedAndPlannedMatchHalideOnEveryCall) {
    const Pipeline &p = std::get<0>(GetParam());
    const double scale = std::get<1>(GetParam()).scale;
    const std::string label = std::string(p.name) + "_" + std::get<1>(GetParam()).name;
    harena::Options options;
    options.debug = true;
    harena::Arena scoped_arena = harena::Arena::device(halide_cuda_device_interface(), kDeviceArenaBytes, options);
    harena::Arena planned_arena = harena::Arena::device(halide_cuda_device_interface(), kDeviceArenaBytes, options);
    // Declared after the arenas: the buffers release their device memory first.
    Workload ref = p.make(scale);
    Way scoped{"(b) plain build in a scope", p.make(scale), {}, {}};
    Way planned{"(c) arena build", p.make(scale), {}, {}};
    std::vector<Buffer<>> previous;
    for (int call = 0; call < kCalls; call++) {
        for (Workload *w : {&ref, &scoped.workload, &planned.workload}) {
            p.write(*w, call);
        }

        // (a) Halide's default allocator.
        ASSERT_EQ(p.plain(ref), 0) << "call " << call << joined(ErrorLog::take());
        ASSERT_EQ(read_back(ref), 0);
        ASSERT_EQ(joined(ErrorLog::take()), "");
        check_outputs_changed(ref, call, previous);

        // (b) The plain build, a scope per call: every device allocation
        // of the call but the argument buffers' comes from the arena.
        scoped.calls.push_back(counted([&] {
            harena::Scope scope(scoped_arena);
            return p.plain(scoped.workload);
        }));
        check_call(scoped, ref, scoped_arena);
        const CallCounts &b = scoped.calls.back();
        check_scoped_counts(b, call);

        // (c) The arena build. Its frame opens before the first planned
        // buffer's first use; unplanned buffers allocated before that take
        // Halide's allocator, those after it the frame (through the override).
        planned.calls.push_back(counted([&] { return p.planned(planned_arena.get(), planned.workload); }));
        check_call(planned, ref, planned_arena);
        const CallCounts &c = planned.calls.back();
        check_host_companion(p, planned_arena, call);

        std::printf("[ corpus   ] %s call %d: (b) %llu device allocations from the arena; (c) %llu from the arena, "
                    "%llu from Halide's allocator, %d cuMemAlloc\n",
                    label.c_str(), call, (unsigned long long)b.arena_allocations,
                    (unsigned long long)c.arena_allocations, (unsigned long long)c.default_allocations,
                    c.driver_allocations);
    }
    check_argument_allocations(scoped);
    check_argument_allocations(planned);
    RecordProperty("scoped_arena_allocations", (int)scoped.calls.back().arena_allocations);
    RecordProperty("planned_arena_allocations", (int)planned.calls.back().arena_allocations);
    RecordProperty("planned_default_allocations", (int)planned.calls.back().default_allocations);
}

INSTANTIATE_TEST_SUITE_P(Corpus, GpuCorpus,
                         ::testing::Combine(::testing::ValuesIn(cuda_pipelines()), ::testing::ValuesIn(kSizes)),
                         [](const auto &info) {
                             return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
