// The CUDA driver as the GPU tests and the benchmarks see it: whether one is
// usable, and what Halide's runtime allocated in it. Halide finds every
// driver function through its weak halide_cuda_get_symbol; this library's
// strong one hands out wrappers of cuMemAlloc_v2 and cuMemFree_v2 that count
// the calls and the bytes they hold, and that can send the requests to
// another allocator (the benchmark's stream-ordered pool). A program links
// it once, and defines no other halide_cuda_get_symbol.
#pragma once

#include "harena_libcuda.h"

#include <cstdint>
#include <vector>

namespace harena_test {

// libcuda loads, cuInit succeeds and a device exists.
bool cuda_usable();

// The primary context of each of the first `count` devices (all: -1),
// retained for the process (Halide's allocation cache may keep blocks freed
// in them); fewer where the machine has fewer or the driver refuses.
std::vector<CUcontext> primary_contexts(int count = -1);

struct CudaDriverCounts {
    int64_t allocations = 0;  // cuMemAlloc_v2 calls, whichever allocator served them
    int64_t frees = 0;        // cuMemFree_v2 calls
};

CudaDriverCounts cuda_driver_counts();
void reset_cuda_driver_counts();

// Bytes obtained from the driver's cuMemAlloc and not yet given back with
// cuMemFree: live buffers plus Halide's cached ones. Diverted allocations
// are not included.
uint64_t cuda_driver_bytes_held();
// Largest cuda_driver_bytes_held() since the last reset.
uint64_t cuda_driver_bytes_peak();
void reset_cuda_driver_bytes_peak();

// Where allocation requests go instead of the driver while diverted.
struct DeviceAllocator {
    CUresult (*allocate)(CUdeviceptr *pointer, size_t bytes);
    CUresult (*free)(CUdeviceptr pointer);
};

// From now on cuMemAlloc_v2 requests go to `allocator` (null: to the driver
// again). A block goes back to the allocator it came from when it is freed,
// whatever is diverted then; `allocator` must outlive the blocks it served.
void divert_cuda_allocations(const DeviceAllocator *allocator);

}  // namespace harena_test
