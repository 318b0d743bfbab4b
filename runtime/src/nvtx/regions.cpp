// The heap and regions of each device arena, as told to the tool.
#include "nvtx/state.h"

#include <map>
#include <mutex>
#include <shared_mutex>
#include <new>
#include <vector>

#include "core/cuda_driver.h"
#include "core/errors.h"
#include "nvtx/client.h"

// Halide's CUDA runtime, where the program has one (weak: host-only programs
// and the tests' stand-in devices have none).
extern "C" int halide_cuda_acquire_context(void *user_context, void **ctx, bool create) __attribute__((weak));
extern "C" int halide_cuda_release_context(void *user_context) __attribute__((weak));

namespace harena::detail {

struct NvtxHeap {
    nvtxMemHeapHandle_t handle;
    // Threads allocate and free at once; the tool's calls for one arena are
    // made in the order its regions change.
    std::mutex mutex;
    struct Region {
        uint64_t bytes;
        bool reservation;  // a frame's reservation, given up to the slices registered in it
    };
    // By address. The runtime keeps this record, not the tool, to unregister
    // only what it registered and to end a popped frame's regions at once.
    std::map<uint64_t, Region> regions;
    // The context the arena's pipelines run in (nvtx_heap_set_context), null
    // for Halide's own: the one whose work a region's end waits for.
    void *context = nullptr;
};

namespace {

using namespace nvtx;

// compute-sanitizer takes NVTX memory calls only while a CUDA context is
// current on the calling thread ("the object is not ready" otherwise), and
// Halide makes its context current only inside its own calls: each call to
// the tool is made in Halide's context. Never called while Halide holds it
// (its lock is not reentrant): the runtime's calls come between Halide's.
//
// The tool checks an access when the kernel runs, against the regions then,
// while the host frees a slice as soon as its last kernel is queued: before
// a region ends, the context finishes its work (`drain`). Only while a tool
// is attached. A drain synchronizes the whole context, which a capture on
// any thread's stream does not allow (both fail with "operation not permitted
// when stream is capturing"): captures hold `captures_or_drain` shared and
// drains hold it exclusively. A capturing thread's own regions end without a
// drain: none of its kernels run until the graph is launched.
//
// Lock order: `captures_or_drain`, then a heap's mutex, then Halide's context
// (whose lock a capturing call takes too). A capture holds the first for its
// whole length and takes a heap's mutex inside it, so every change that may
// end a region takes `DrainLock` before the heap's mutex, never after.
thread_local bool capturing = false;
thread_local bool holding_drain = false;
std::shared_mutex captures_or_drain;

class DrainLock {
public:
    DrainLock() {
        if (!capturing && !holding_drain) {
            lock_ = std::unique_lock<std::shared_mutex>(captures_or_drain);
            holding_drain = true;
        }
    }
    ~DrainLock() {
        if (lock_.owns_lock()) {
            holding_drain = false;
        }
    }
    DrainLock(const DrainLock &) = delete;
    DrainLock &operator=(const DrainLock &) = delete;

private:
    std::unique_lock<std::shared_mutex> lock_;
};

class InHeapContext {
public:
    // The heap's context where it has one (heap may be null: not yet made),
    // else Halide's. drain: finish the context's work first, where this
    // thread holds a DrainLock (not while it captures).
    explicit InHeapContext(const NvtxHeap *heap, bool drain = false) {
        drain = drain && holding_drain;
        const CudaDriver *d = cuda_driver();
        if (d == nullptr || d->ctx_push == nullptr) {
            return;
        }
        void *ctx = heap != nullptr ? heap->context : nullptr;
        if (ctx == nullptr && halide_cuda_acquire_context != nullptr &&
            halide_cuda_acquire_context(nullptr, &ctx, false) == 0) {
            acquired_ = true;
        }
        pushed_ = ctx != nullptr && d->ctx_push(static_cast<CUcontext>(ctx)) == 0;
        if (pushed_ && drain && d->ctx_synchronize != nullptr) {
            (void)d->ctx_synchronize();
        }
    }
    ~InHeapContext() {
        if (pushed_) {
            CUcontext popped = nullptr;
            (void)cuda_driver()->ctx_pop(&popped);
        }
        if (acquired_) {
            (void)halide_cuda_release_context(nullptr);
        }
    }
    InHeapContext(const InHeapContext &) = delete;
    InHeapContext &operator=(const InHeapContext &) = delete;

private:
    bool acquired_ = false;
    bool pushed_ = false;
};

void call_register(const MemApi &api, const NvtxHeap &heap, uint64_t address, uint64_t bytes) {
    const nvtxMemVirtualRangeDesc_t range{bytes, reinterpret_cast<const void *>(address)};
    // With virtual-address regions the handles out may be NULL: a region is
    // then named by its address.
    const nvtxMemRegionsRegisterBatch_t batch{NVTX_EXT_COMPATID_MEM,
                                              sizeof(nvtxMemRegionsRegisterBatch_t),
                                              NVTX_MEM_TYPE_VIRTUAL_ADDRESS,
                                              heap.handle,
                                              1,
                                              sizeof(range),
                                              &range,
                                              nullptr};
    InHeapContext in_context(&heap);
    api.regions_register(api.domain, &batch);
}

void call_unregister(const MemApi &api, const NvtxHeap &heap, const void *const *addresses, size_t count) {
    // Regions named by address: nvtxMemRegionRef_t's pointer member.
    static_assert(sizeof(nvtxMemRegionRef_t) == sizeof(const void *), "a region reference is one pointer");
    const nvtxMemRegionsUnregisterBatch_t batch{NVTX_EXT_COMPATID_MEM, sizeof(nvtxMemRegionsUnregisterBatch_t),
                                                NVTX_MEM_REGION_REF_TYPE_POINTER, count, sizeof(nvtxMemRegionRef_t),
                                                reinterpret_cast<const nvtxMemRegionRef_t *>(addresses)};
    InHeapContext in_context(&heap, true);
    api.regions_unregister(api.domain, &batch);
}

void unregister_one(const MemApi &api, NvtxHeap &heap, std::map<uint64_t, NvtxHeap::Region>::iterator it) {
    trace("heap %p: region 0x%llx unregistered%s", heap.handle, static_cast<unsigned long long>(it->first),
          it->second.reservation ? " (frame reservation)" : "");
    const void *address = reinterpret_cast<const void *>(it->first);
    call_unregister(api, heap, &address, 1);
    heap.regions.erase(it);
}

void register_locked(const MemApi &api, NvtxHeap &heap, uint64_t address, uint64_t bytes, bool reservation) {
    // An address registered twice was freed without the runtime seeing it
    // (a planned slice reused without live=0): the old region ends first.
    auto it = heap.regions.find(address);
    if (it != heap.regions.end()) {
        unregister_one(api, heap, it);
    }
    // Recorded before the tool hears of it: without host memory for the
    // record the region is not registered at all (a tool may then flag
    // accesses to it), and the runtime goes on.
    try {
        heap.regions.emplace(address, NvtxHeap::Region{bytes, reservation});
    } catch (const std::bad_alloc &) {
        trace("heap %p: no host memory to record region [0x%llx, 0x%llx); not registered", heap.handle,
              static_cast<unsigned long long>(address), static_cast<unsigned long long>(address + bytes));
        return;
    }
    trace("heap %p: region [0x%llx, 0x%llx) registered%s", heap.handle, static_cast<unsigned long long>(address),
          static_cast<unsigned long long>(address + bytes), reservation ? " (frame reservation)" : "");
    call_register(api, heap, address, bytes);
}

// A slice the frame's pusher placed itself: the reservation holding it stops
// being one region, leaving only the slices registered in it accessible.
}  // namespace

void nvtx_planned_register(NvtxHeap &heap, uint64_t address, uint64_t bytes) {
    const MemApi &api = *mem_api();
    DrainLock drain;
    std::lock_guard<std::mutex> lock(heap.mutex);
    auto it = heap.regions.upper_bound(address);
    if (it != heap.regions.begin()) {
        --it;
        if (it->second.reservation && address - it->first < it->second.bytes) {
            unregister_one(api, heap, it);
        }
    }
    if (bytes != 0) {
        register_locked(api, heap, address, bytes, false);
    }
}

void nvtx_heap_register(NvtxHeap *&heap, const void *owner, uint64_t address, uint64_t bytes) {
    const MemApi *api = mem_api();
    if (api == nullptr) {
        return;
    }
    // compute-sanitizer refuses memory from a CUDA memory pool (cudaMallocAsync,
    // RMM's cuda_async_memory_resource) as a heap, and counts the refusal as
    // an error: such an arena's slices are not registered.
    const CudaDriver *d = cuda_driver();
    CUmemoryPool pool = nullptr;
    if (d != nullptr && d->pointer_get_attribute != nullptr &&
        d->pointer_get_attribute(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, address) == CUDA_SUCCESS &&
        pool != nullptr) {
        trace("arena %p: [0x%llx, 0x%llx) comes from a CUDA memory pool; not registered as a heap", owner,
              static_cast<unsigned long long>(address), static_cast<unsigned long long>(address + bytes));
        return;
    }
    nvtx_heap_unregister(heap, owner);
    const nvtxMemVirtualRangeDesc_t range{bytes, reinterpret_cast<const void *>(address)};
    // A sub-allocator heap: its memory may be accessed only inside its
    // registered regions. Category and message stay 0: unnamed.
    nvtxMemHeapDesc_t desc{};
    desc.extCompatID = NVTX_EXT_COMPATID_MEM;
    desc.structSize = sizeof(nvtxMemHeapDesc_t);
    desc.usage = NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR;
    desc.type = NVTX_MEM_TYPE_VIRTUAL_ADDRESS;
    desc.typeSpecificDescSize = sizeof(range);
    desc.typeSpecificDesc = &range;
    nvtxMemHeapHandle_t handle = nullptr;
    {
        InHeapContext in_context(nullptr);
        handle = api->heap_register(api->domain, &desc);
    }
    trace("arena %p: heap [0x%llx, 0x%llx) registered as %p", owner,
          static_cast<unsigned long long>(address), static_cast<unsigned long long>(address + bytes), handle);
    // NVTX_MEM_HEAP_HANDLE_PROCESS_WIDE (NULL) is never a heap of its own;
    // NVTX_MEM_HEAP_HANDLE_NO_TOOL is (intptr_t)-1, spelled out because the
    // macro's static_cast does not compile as C++.
    if (handle == NVTX_MEM_HEAP_HANDLE_PROCESS_WIDE || handle == reinterpret_cast<nvtxMemHeapHandle_t>(intptr_t(-1))) {
        trace("the tool refused the heap: the arena's slices are not registered");
        return;
    }
    heap = new (std::nothrow) NvtxHeap{handle, {}, {}, nullptr};
    if (heap == nullptr) {
        api->heap_unregister(api->domain, handle);
    }
}

void nvtx_heap_unregister(NvtxHeap *&heap, const void *owner) {
    if (heap == nullptr) {
        return;
    }
    const MemApi &api = *mem_api();
    // Unregistering the heap ends its regions (nvToolsExtMem.h).
    trace("arena %p: heap %p unregistered with %zu live region(s)", owner, heap->handle, heap->regions.size());
    {
        DrainLock drain;
        InHeapContext in_context(heap, true);
        api.heap_unregister(api.domain, heap->handle);
    }
    delete heap;
    heap = nullptr;
}

void nvtx_heap_set_context(NvtxHeap *heap, void *context) {
    if (heap != nullptr) {
        DrainLock drain;
        std::lock_guard<std::mutex> lock(heap->mutex);
        heap->context = context;
    }
}

void nvtx_capturing(bool now) {
    if (!attached() || now == capturing) {
        return;
    }
    if (now) {
        captures_or_drain.lock_shared();
    } else {
        captures_or_drain.unlock_shared();
    }
    capturing = now;
}

void nvtx_region_register(NvtxHeap &heap, uint64_t address, uint64_t bytes) {
    if (bytes == 0) {
        return;
    }
    DrainLock drain;
    std::lock_guard<std::mutex> lock(heap.mutex);
    register_locked(*mem_api(), heap, address, bytes, false);
}

void nvtx_reservation_register(NvtxHeap &heap, uint64_t address, uint64_t bytes) {
    DrainLock drain;
    std::lock_guard<std::mutex> lock(heap.mutex);
    register_locked(*mem_api(), heap, address, bytes, true);
}

void nvtx_region_unregister(NvtxHeap &heap, uint64_t address) {
    DrainLock drain;
    std::lock_guard<std::mutex> lock(heap.mutex);
    auto it = heap.regions.find(address);
    if (it != heap.regions.end() && !it->second.reservation) {
        unregister_one(*mem_api(), heap, it);
    }
}

void nvtx_frame_popped(NvtxHeap &heap, uint64_t base) {
    DrainLock drain;
    std::lock_guard<std::mutex> lock(heap.mutex);
    const auto first = heap.regions.lower_bound(base);
    if (first == heap.regions.end()) {
        return;
    }
    std::vector<const void *> addresses;
    try {
        for (auto it = first; it != heap.regions.end(); ++it) {
            addresses.push_back(reinterpret_cast<const void *>(it->first));
        }
    } catch (const std::bad_alloc &) {
        // Without host memory for the list, one call per region.
        while (heap.regions.lower_bound(base) != heap.regions.end()) {
            unregister_one(*mem_api(), heap, heap.regions.lower_bound(base));
        }
        return;
    }
    trace("heap %p: frame at 0x%llx popped: %zu region(s) from 0x%llx unregistered", heap.handle,
          static_cast<unsigned long long>(base), addresses.size(), static_cast<unsigned long long>(first->first));
    call_unregister(*mem_api(), heap, addresses.data(), addresses.size());
    heap.regions.erase(first, heap.regions.end());
}

}  // namespace harena::detail
