#include "cuda_driver.h"

#include "harena/runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstring>

namespace harena_test {

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;

void *libcuda() {
    static void *lib = [] {
        void *l = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        return l != nullptr ? l : dlopen("libcuda.so", RTLD_NOW | RTLD_LOCAL);
    }();
    return lib;
}

std::atomic<int> allocations{0};
std::atomic<int> frees{0};
CUresult (*driver_alloc)(CUdeviceptr *, size_t) = nullptr;
CUresult (*driver_free)(CUdeviceptr) = nullptr;

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
    void *lib = libcuda();
    void *symbol = lib != nullptr ? dlsym(lib, name) : nullptr;
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
