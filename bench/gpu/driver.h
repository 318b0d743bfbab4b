// The CUDA driver as Halide's runtime sees it in the benchmark: Halide's
// context and stream, the driver calls counted by the shared counter
// (tests/support/cuda_driver.h), and CUDA's stream-ordered pool, which serves
// Halide's cuMemAlloc_v2/cuMemFree_v2 requests while it is switched on
// (cuMemAllocFromPoolAsync / cuMemFreeAsync on Halide's stream). libcuda is
// opened at run time.
#pragma once

#include <cstdint>
#include <string>

namespace bench {

// Binds to the context Halide's runtime created (call after Halide has
// touched the GPU) and prepares the device's stream-ordered pool with its
// release threshold at the maximum. Returns false with a message on stderr.
bool driver_init();

// The device Halide runs on and the driver version, e.g. "NVIDIA H100 80GB HBM3 (CUDA driver API 13.0)".
std::string device_description();

// Waits for all work in Halide's context.
void synchronize();

// Makes `context` (nullptr: Halide's, as driver_init found it) the calling
// thread's current CUDA context, as cudaSetDevice does for a thread of a CUDA
// program; the runtime's launches and waits then push and pop nothing.
void make_context_current(void *context);

struct DriverCalls {
    uint64_t allocations = 0;  // cuMemAlloc_v2 calls, whichever allocator served them
    uint64_t frees = 0;        // cuMemFree_v2 calls
};
DriverCalls driver_calls();

// Bytes obtained through cuMemAlloc and not yet given back with cuMemFree:
// live buffers plus Halide's cached ones. Pool allocations are not included.
uint64_t driver_bytes_held();
// Largest driver_bytes_held() since the last reset.
uint64_t driver_bytes_peak();
void reset_driver_bytes_peak();

// While on, cuMemAlloc_v2/cuMemFree_v2 requests go to the stream-ordered pool.
void use_async_pool(bool on);

struct PoolUsage {
    uint64_t reserved_high = 0;  // CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: what the pool held
    uint64_t used_high = 0;      // CU_MEMPOOL_ATTR_USED_MEM_HIGH: what was handed out
};
// Returns the pool's memory to the driver and restarts its high watermarks.
void reset_pool();
PoolUsage pool_usage();

}  // namespace bench
