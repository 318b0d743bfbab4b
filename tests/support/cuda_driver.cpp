#include "cuda_driver.h"

#include "harena/runtime.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace harena_test {

namespace {

PFN_cuMemAlloc_v3020 driver_alloc = nullptr;
PFN_cuMemFree_v3020 driver_free = nullptr;

std::atomic<int64_t> allocations{0};
std::atomic<int64_t> frees{0};
std::atomic<const DeviceAllocator *> diverted{nullptr};

// Which allocator each live block came from (null: the driver) and, for the
// driver's, its size.
struct Block {
    const DeviceAllocator *allocator;
    uint64_t bytes;
};
std::mutex blocks_lock;
std::unordered_map<CUdeviceptr, Block> blocks;
uint64_t held = 0;
uint64_t peak = 0;

CUresult counting_alloc(CUdeviceptr *pointer, size_t bytes) {
    allocations++;
    const DeviceAllocator *allocator = diverted.load();
    const CUresult result = allocator != nullptr ? allocator->allocate(pointer, bytes) : driver_alloc(pointer, bytes);
    if (result == CUDA_SUCCESS) {
        std::lock_guard<std::mutex> lock(blocks_lock);
        blocks[*pointer] = Block{allocator, allocator != nullptr ? 0 : bytes};
        if (allocator == nullptr) {
            held += bytes;
            peak = std::max(peak, held);
        }
    }
    return result;
}

CUresult counting_free(CUdeviceptr pointer) {
    frees++;
    const DeviceAllocator *allocator = nullptr;
    {
        std::lock_guard<std::mutex> lock(blocks_lock);
        auto block = blocks.find(pointer);
        if (block != blocks.end()) {
            allocator = block->second.allocator;
            held -= block->second.bytes;
            blocks.erase(block);
        }
    }
    return allocator != nullptr ? allocator->free(pointer) : driver_free(pointer);
}

}  // namespace

bool cuda_usable() {
    return harena_cuda_device_count() > 0;
}

std::vector<CUcontext> primary_contexts(int count) {
    using harena::detail::cuda_symbol;
    auto device_get = cuda_symbol<PFN_cuDeviceGet_v2000>("cuDeviceGet");
    auto primary_retain = cuda_symbol<PFN_cuDevicePrimaryCtxRetain_v7000>("cuDevicePrimaryCtxRetain");
    const int devices = harena_cuda_device_count();
    std::vector<CUcontext> contexts;
    for (int d = 0; device_get != nullptr && primary_retain != nullptr && d < devices && (count < 0 || d < count);
         d++) {
        CUdevice device = 0;
        CUcontext context = nullptr;
        if (device_get(&device, d) != CUDA_SUCCESS || primary_retain(&context, device) != CUDA_SUCCESS) {
            break;
        }
        contexts.push_back(context);
    }
    return contexts;
}

CudaDriverCounts cuda_driver_counts() {
    return CudaDriverCounts{allocations.load(), frees.load()};
}

void reset_cuda_driver_counts() {
    allocations = 0;
    frees = 0;
}

uint64_t cuda_driver_bytes_held() {
    std::lock_guard<std::mutex> lock(blocks_lock);
    return held;
}

uint64_t cuda_driver_bytes_peak() {
    std::lock_guard<std::mutex> lock(blocks_lock);
    return peak;
}

void reset_cuda_driver_bytes_peak() {
    std::lock_guard<std::mutex> lock(blocks_lock);
    peak = held;
}

void divert_cuda_allocations(const DeviceAllocator *allocator) {
    diverted = allocator;
}

}  // namespace harena_test

// Halide's CUDA runtime looks every driver function up here once, when it
// first loads libcuda; it asks for cuMemAlloc_v2 and cuMemFree_v2 by these
// names, and gets the counting wrappers above.
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
