// The test generators built for host-cuda, plain and planned, run on the GPU:
// bit-identical output, and no device allocation reaches the driver during
// planned runs (Halide's CUDA device_malloc is counted through the device
// interface). Skips where no CUDA device is usable.
#include "cuda_pipeline_table.h"
#include "pipeline_harness.h"

#include "HalideRuntimeCuda.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

using Halide::Runtime::Buffer;
using namespace harena_test;

extern "C" int harena_test_extern_scale(halide_buffer_t *in, int32_t k, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min;
            in->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    Buffer<float> src(*in), dst(*out);
    dst.for_each_element([&](int x, int y) { dst(x, y) = src(x, y) * (float)k; });
    return 0;
}

// Every device allocation a pipeline asks for passes here; the count shows
// whether a planned run reached the driver's allocator at all.
static int device_mallocs = 0;
extern "C" int halide_device_malloc(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    device_mallocs++;
    return iface->device_malloc(uc, buf, iface);
}

namespace {

bool cuda_usable() {
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib) {
        return false;
    }
    using InitFn = int (*)(unsigned);
    using CountFn = int (*)(int *);
    auto init = (InitFn)dlsym(lib, "cuInit");
    auto count = (CountFn)dlsym(lib, "cuDeviceGetCount");
    int n = 0;
    return init && count && init(0) == 0 && count(&n) == 0 && n > 0;
}


class GpuPipeline : public ::testing::TestWithParam<GeneratedPipeline> {
protected:
    void SetUp() override {
        if (!cuda_usable()) {
            GTEST_SKIP() << "no usable CUDA device";
        }
    }
};

TEST_P(GpuPipeline, MatchesUnplannedWithoutDriverAllocations) {
    const GeneratedPipeline &p = GetParam();
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, cuda, p.arena_bytes, nullptr, &arena), 0) << harena_last_error();
    for (int n : {16, 200, kMaxExtent}) {
        Buffer<float> in(n, n), ref(n, n), got(n, n);
        fill_random(in, n);
        ASSERT_EQ(p.plain(in, 9, ref), 0) << p.name << ": " << last_error();
        ref.copy_to_host();
        // Inputs and outputs live on the device before the run, so any
        // device allocation during it would be an intermediate's.
        ASSERT_EQ(in.copy_to_device(cuda), 0);
        ASSERT_EQ(got.device_malloc(cuda), 0);
        harena_stats before, after;
        harena_get_stats(arena, &before);
        device_mallocs = 0;
        ASSERT_EQ(p.planned(arena, in, 9, got), 0) << p.name << ": " << last_error();
        EXPECT_EQ(device_mallocs, 0) << p.name << ": device allocations reached Halide's allocator";
        harena_get_stats(arena, &after);
        EXPECT_EQ(after.frames_pushed, before.frames_pushed + 1) << p.name;
        got.copy_to_host();
        EXPECT_EQ(first_difference(ref, got), "") << p.name << " at " << n;
        in.device_free();
        ref.device_free();
        got.device_free();
    }
    EXPECT_EQ(harena_destroy(arena), 0);
}

INSTANTIATE_TEST_SUITE_P(E2E, GpuPipeline, ::testing::ValuesIn(kCudaPipelines),
                         [](const auto &info) { return std::string(info.param.name); });

}  // namespace
