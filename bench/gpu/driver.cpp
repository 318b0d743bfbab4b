#include "driver.h"

#include "cuda_driver.h"
#include "harena_libcuda.h"

#include <errno.h>  // program_invocation_short_name: every GPU benchmark links this file

#include <cstdio>
#include <cstdlib>
#include <limits>

// Halide's runtime defines these (weak, C linkage) without declaring them
// in a public header; the context and stream are CUcontext and CUstream.
extern "C" int halide_cuda_acquire_context(void *user_context, void **ctx, bool create);
extern "C" int halide_cuda_release_context(void *user_context);
extern "C" int halide_cuda_get_stream(void *user_context, void *ctx, void **stream);

namespace bench {
namespace {

using harena::detail::cuda_symbol;

struct Driver {
    PFN_cuMemAllocFromPoolAsync_v11020 alloc_async =
        cuda_symbol<PFN_cuMemAllocFromPoolAsync_v11020>("cuMemAllocFromPoolAsync");
    PFN_cuMemFreeAsync_v11020 free_async = cuda_symbol<PFN_cuMemFreeAsync_v11020>("cuMemFreeAsync");
    PFN_cuCtxPushCurrent_v4000 push = cuda_symbol<PFN_cuCtxPushCurrent_v4000>("cuCtxPushCurrent_v2");
    PFN_cuCtxPopCurrent_v4000 pop = cuda_symbol<PFN_cuCtxPopCurrent_v4000>("cuCtxPopCurrent_v2");
    PFN_cuCtxSetCurrent_v4000 set_current = cuda_symbol<PFN_cuCtxSetCurrent_v4000>("cuCtxSetCurrent");
    PFN_cuCtxSynchronize_v2000 ctx_synchronize = cuda_symbol<PFN_cuCtxSynchronize_v2000>("cuCtxSynchronize");
    PFN_cuCtxGetDevice_v2000 ctx_device = cuda_symbol<PFN_cuCtxGetDevice_v2000>("cuCtxGetDevice");
    PFN_cuDeviceGetName_v2000 device_name = cuda_symbol<PFN_cuDeviceGetName_v2000>("cuDeviceGetName");
    PFN_cuDriverGetVersion_v2020 driver_version = cuda_symbol<PFN_cuDriverGetVersion_v2020>("cuDriverGetVersion");
    PFN_cuDeviceGetDefaultMemPool_v11020 default_pool =
        cuda_symbol<PFN_cuDeviceGetDefaultMemPool_v11020>("cuDeviceGetDefaultMemPool");
    PFN_cuMemPoolSetAttribute_v11020 pool_set = cuda_symbol<PFN_cuMemPoolSetAttribute_v11020>("cuMemPoolSetAttribute");
    PFN_cuMemPoolGetAttribute_v11020 pool_get = cuda_symbol<PFN_cuMemPoolGetAttribute_v11020>("cuMemPoolGetAttribute");
    PFN_cuMemPoolTrimTo_v11020 pool_trim = cuda_symbol<PFN_cuMemPoolTrimTo_v11020>("cuMemPoolTrimTo");
};

const Driver &driver() {
    static const Driver d;
    return d;
}

// Where Halide runs: filled in by driver_init.
CUcontext halide_context = nullptr;
CUstream halide_stream = nullptr;
CUdevice device = 0;
CUmemoryPool pool = nullptr;

void check(CUresult result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "%s: %s failed with CUDA error %d\n", program_invocation_short_name, what, result);
        std::exit(1);
    }
}

// Makes Halide's context current on this thread for its lifetime.
class InHalideContext {
public:
    InHalideContext() {
        check(driver().push(halide_context), "cuCtxPushCurrent");
    }
    ~InHalideContext() {
        CUcontext previous = nullptr;
        driver().pop(&previous);
    }
    InHalideContext(const InHalideContext &) = delete;
    InHalideContext &operator=(const InHalideContext &) = delete;
};

// CUDA's stream-ordered pool on Halide's stream, where the shared counter
// sends allocations while use_async_pool is on.
CUresult pool_alloc(CUdeviceptr *pointer, size_t bytes) {
    return driver().alloc_async(pointer, bytes, pool, halide_stream);
}

CUresult pool_free(CUdeviceptr pointer) {
    return driver().free_async(pointer, halide_stream);
}

const harena_test::DeviceAllocator pool_allocator{pool_alloc, pool_free};

}  // namespace

bool driver_init() {
    const Driver &d = driver();
    if (d.alloc_async == nullptr || d.default_pool == nullptr || d.pool_trim == nullptr) {
        std::fprintf(stderr, "%s: the CUDA driver has no stream-ordered allocator\n", program_invocation_short_name);
        return false;
    }
    if (halide_cuda_acquire_context(nullptr, reinterpret_cast<void **>(&halide_context), true) != 0 || halide_context == nullptr) {
        std::fprintf(stderr, "%s: Halide could not create a CUDA context\n", program_invocation_short_name);
        return false;
    }
    halide_cuda_release_context(nullptr);
    InHalideContext in_context;
    check(d.ctx_device(&device), "cuCtxGetDevice");
    if (halide_cuda_get_stream(nullptr, halide_context, reinterpret_cast<void **>(&halide_stream)) != 0) {
        std::fprintf(stderr, "%s: halide_cuda_get_stream failed\n", program_invocation_short_name);
        return false;
    }
    check(d.default_pool(&pool, device), "cuDeviceGetDefaultMemPool");
    // Keep every freed byte in the pool: the configuration that makes
    // cudaMallocAsync fast (no release to the OS at synchronization).
    uint64_t threshold = std::numeric_limits<uint64_t>::max();
    check(d.pool_set(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold), "cuMemPoolSetAttribute(RELEASE_THRESHOLD)");
    return true;
}

std::string device_description() {
    char name[256] = {0};
    check(driver().device_name(name, sizeof(name) - 1, device), "cuDeviceGetName");
    int version = 0;
    check(driver().driver_version(&version), "cuDriverGetVersion");
    return std::string(name) + " (CUDA driver API " + std::to_string(version / 1000) + "." +
           std::to_string(version % 1000 / 10) + ")";
}

void synchronize() {
    InHalideContext in_context;
    check(driver().ctx_synchronize(), "cuCtxSynchronize");
}

void make_context_current(void *context) {
    check(driver().set_current(context != nullptr ? static_cast<CUcontext>(context) : halide_context), "cuCtxSetCurrent");
}

DriverCalls driver_calls() {
    const harena_test::CudaDriverCounts counts = harena_test::cuda_driver_counts();
    return DriverCalls{static_cast<uint64_t>(counts.allocations), static_cast<uint64_t>(counts.frees)};
}

uint64_t driver_bytes_held() {
    return harena_test::cuda_driver_bytes_held();
}

uint64_t driver_bytes_peak() {
    return harena_test::cuda_driver_bytes_peak();
}

void reset_driver_bytes_peak() {
    harena_test::reset_cuda_driver_bytes_peak();
}

void use_async_pool(bool on) {
    harena_test::divert_cuda_allocations(on ? &pool_allocator : nullptr);
}

void reset_pool() {
    InHalideContext in_context;
    check(driver().ctx_synchronize(), "cuCtxSynchronize");
    check(driver().pool_trim(pool, 0), "cuMemPoolTrimTo");
    uint64_t zero = 0;
    check(driver().pool_set(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero), "cuMemPoolSetAttribute(RESERVED_MEM_HIGH)");
    check(driver().pool_set(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero), "cuMemPoolSetAttribute(USED_MEM_HIGH)");
}

PoolUsage pool_usage() {
    InHalideContext in_context;
    PoolUsage usage;
    check(driver().pool_get(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &usage.reserved_high), "cuMemPoolGetAttribute(RESERVED_MEM_HIGH)");
    check(driver().pool_get(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &usage.used_high), "cuMemPoolGetAttribute(USED_MEM_HIGH)");
    return usage;
}

}  // namespace bench
