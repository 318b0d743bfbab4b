// Kernels for the cross-stream suites, as PTX loaded through the driver (no
// CUDA compiler needed to build them): fill writes value ^ i to every word of
// a buffer, check counts the words that differ; each first spins for a given
// time on the GPU, so that work on one stream is still running when another
// stream's work is queued. check sums its count in shared memory per block
// (what compute-sanitizer's racecheck inspects) and adds it to a word of
// mapped host memory.
#pragma once

#include <cstdint>

#include "harena_libcuda.h"

namespace harena_test {

// The driver functions the suites call, looked up in libcuda.
struct StreamTestDriver {
    PFN_cuInit_v2000 init = nullptr;
    PFN_cuDeviceGetCount_v2000 device_count = nullptr;
    PFN_cuDeviceGet_v2000 device_get = nullptr;
    PFN_cuDeviceGetName_v2000 device_name = nullptr;
    PFN_cuDevicePrimaryCtxRetain_v7000 primary_ctx_retain = nullptr;
    PFN_cuCtxSetCurrent_v4000 ctx_set_current = nullptr;
    PFN_cuStreamCreate_v2000 stream_create = nullptr;
    PFN_cuStreamDestroy_v4000 stream_destroy = nullptr;
    PFN_cuStreamSynchronize_v2000 stream_synchronize = nullptr;
    PFN_cuModuleLoadData_v2000 module_load_data = nullptr;
    PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
    PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
    PFN_cuMemAlloc_v3020 mem_alloc = nullptr;
    PFN_cuMemFree_v3020 mem_free = nullptr;
    PFN_cuMemHostAlloc_v2020 mem_host_alloc = nullptr;
    PFN_cuMemHostGetDevicePointer_v3020 mem_host_get_device_pointer = nullptr;
    PFN_cuMemFreeHost_v2000 mem_free_host = nullptr;
};

// Null where libcuda is missing, lacks a function, or finds no device.
const StreamTestDriver *stream_test_driver();

// Makes device 0's primary context current on the calling thread and loads
// the kernels in it; false (with the reason in *why) where that fails.
bool load_pattern_kernels(const char **why);

// The GPU's name, for reports.
const char *gpu_name();

// An error count the check kernel adds to: host memory the GPU writes.
struct ErrorCount {
    ErrorCount();
    ~ErrorCount();
    ErrorCount(const ErrorCount &) = delete;
    ErrorCount &operator=(const ErrorCount &) = delete;
    [[nodiscard]] uint32_t read() const {
        return *static_cast<volatile uint32_t *>(host);
    }
    void *host = nullptr;
    CUdeviceptr device = 0;
};

// Queue the kernels on `stream`: `words` 32-bit words at `address`, after
// spinning for `delay_ns` on the GPU.
void fill_pattern(CUstream stream, uint64_t address, uint32_t words, uint32_t value, uint64_t delay_ns);
void check_pattern(CUstream stream, uint64_t address, uint32_t words, uint32_t value, uint64_t delay_ns,
                   const ErrorCount &errors);

}  // namespace harena_test
