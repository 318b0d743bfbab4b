// The test generators called the way Halide's RunGen and users' programs call
// a pipeline: host buffers in and out, allocated once and reused, new input
// values written before every call, the output read back after it. The
// pipeline uploads the input and allocates the output's device memory itself,
// inside the call, and both buffers keep that memory after it.
//
// The override is linked, so three ways run side by side, each on buffers of
// its own: Halide's default (no scope: the reference), the plain pipeline in
// a scope per call, and the planned pipeline. Each call of the two arena ways
// must be bit-identical to the reference's, the arena (in debug mode) must
// report nothing, and after the first call no device allocation of the
// planned pipeline may reach the driver, nor one of the plain pipeline in its
// scope unless its kernels launch inside parallel CPU loops (the override
// serves the scope's own thread, not Halide's workers). Skips where no CUDA
// device is usable.
#include "cuda_driver.h"
#include "cuda_test.h"
#include "cuda_pipeline_table.h"
#include "pipeline_harness.h"

#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"

#include <gtest/gtest.h>

using Halide::Runtime::Buffer;
using namespace harena_test;

namespace {

struct Way {
    explicit Way(int n)
        : in(n, n), out(n, n) {
    }
    Buffer<float> in, out;
};

// Extra room for what the override bumps in the planned pipeline's frame:
// the intermediates the plan leaves to the runtime.
constexpr uint64_t kRuntimeRoom = 32 << 20;
const int kCallK[] = {9, 16, 1, 5};

using GpuHostBuffers = CudaTestWithParam<GeneratedPipeline>;

TEST_P(GpuHostBuffers, EveryCallMatchesHalidesDefault) {
    const GeneratedPipeline &p = GetParam();
    harena::Options debug;
    debug.debug = true;
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), p.arena_bytes + kRuntimeRoom, debug);
    for (int n : {48, 300}) {
        Way reference(n), scoped(n), planned(n);
        for (int call = 0; call < 4; call++) {
            const int k = kCallK[call];
            const uint32_t seed = static_cast<uint32_t>(n * 10 + call);
            for (Way *w : {&reference, &scoped, &planned}) {
                fill_random(w->in, seed);
                w->in.set_host_dirty();
            }
            clear_last_error();
            ASSERT_EQ(p.plain(reference.in, k, reference.out), 0) << p.name << ": " << last_error();
            reset_cuda_driver_counts();
            {
                harena::Scope scope(arena);
                ASSERT_EQ(p.plain(scoped.in, k, scoped.out), 0) << p.name << ": " << last_error();
            }
            const int64_t scoped_allocations = cuda_driver_counts().allocations;
            reset_cuda_driver_counts();
            ASSERT_EQ(p.planned(arena.get(), planned.in, k, planned.out), 0) << p.name << ": " << last_error();
            if (call > 0) {
                EXPECT_EQ(cuda_driver_counts().allocations, 0) << p.name << " " << n << "x" << n << ", call " << call
                                                               << ": a planned device allocation reached the driver";
                if (!p.launches_in_parallel_loops) {
                    EXPECT_EQ(scoped_allocations, 0) << p.name << " " << n << "x" << n << ", call " << call
                                                     << ": a device allocation in the scope reached the driver";
                }
            }
            EXPECT_EQ(last_error(), "") << p.name << " " << n << "x" << n << ", call " << call;
            for (Way *w : {&reference, &scoped, &planned}) {
                ASSERT_EQ(w->out.copy_to_host(), 0);
            }
            EXPECT_EQ(first_difference(reference.out, scoped.out), "")
                << p.name << " in a scope, " << n << "x" << n << ", call " << call;
            EXPECT_EQ(first_difference(reference.out, planned.out), "")
                << p.name << " planned, " << n << "x" << n << ", call " << call;
        }
    }
    // Only the scoped way's two argument buffers, on their first call of each
    // size, ever held frame memory when a frame popped; the planned pipeline
    // takes its arguments' memory outside its frame.
    EXPECT_LE(arena.stats().evictions, 4u) << p.name;
    std::printf("%s: %llu buffers moved out of popping frames\n", p.name,
                static_cast<unsigned long long>(arena.stats().evictions));
}

INSTANTIATE_TEST_SUITE_P(E2E, GpuHostBuffers, ::testing::ValuesIn(kCudaPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
