#include "cuda_driver.h"

#include "harena/runtime.h"
#include "harena_libcuda.h"

#include <atomic>
#include <cstddef>
#include <cstring>

namespace harena_test {

namespace {

std::atomic<int> allocations{0};
std::atomic<int> frees{0};
PFN_cuMemAlloc_v3020 driver_alloc = nullptr;
PFN_cuMemFree_v3020 driver_free = nullptr;

CUresult counting_alloc(CUdeviceptr *pointer, size_t bytes) {
    allocations++;
    return driver_alloc(pointer, bytes);
}

CUresult counting_free(CUdeviceptr pointer) {
    frees++;
    return driver_free(pointer);
}

}  // namespace

bool cuda_usable() {
    return harena_cuda_device_count() > 0;
}

CudaDriverCounts cuda_driver_counts() {
    return CudaDriverCounts{allocations.load(), frees.load()};
}

void reset_cuda_driver_counts() {
    allocations = 0;
    frees = 0;
}

}  // namespace harena_test

// Halide's CUDA runtime asks for cuMemAlloc_v2 and cuMemFree_v2 by these names.
extern "C" void *halide_cuda_get_symbol(void *, const char *name) {
    using namespace harena_test;
    void *symbol = harena::detail::cuda_symbol_address(name);
    if (symbol == nullptr) {
        return nullptr;
    }
    if (std::strcmp(name, "cuMemAlloc_v2") == 0) {
        driver_alloc = reinterpret_cast<decltype(driver_alloc)>(symbol);
        return reinterpret_cast<void *>(&counting_alloc);
    }
    if (std::strcmp(name, "cuMemFree_v2") == 0) {
        driver_free = reinterpret_cast<decltype(driver_free)>(symbol);
        return reinterpret_cast<void *>(&counting_free);
    }
    return symbol;
}
