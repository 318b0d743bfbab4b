// The client side of NVTX's tool-injection protocol, reduced to what the
// arena needs: a domain and the memory extension's heap and region calls.
// Tools that read NVTX annotations (compute-sanitizer, Nsight Systems) set
// NVTX_INJECTION64_PATH to their injection library; a program built with
// NVIDIA's header-only NVTX library loads it at its first NVTX call. The
// runtime implements that loading itself, so it builds without NVTX headers
// or a CUDA toolkit and costs nothing when no tool is attached.
//
// Every layout and constant below is NVTX's documented ABI, as declared by
// the headers of https://github.com/NVIDIA/NVTX (c/include/nvtx3); each
// names the declaration it mirrors. Layouts are those of 64-bit Linux, the
// only platform the runtime loads a tool on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harena::detail::nvtx {

// nvToolsExtMem.h: NVTX_EXT_COMPATID_MEM, the version of the memory
// extension's structures; every structure below starts with it.
constexpr uint16_t kMemCompatId = 0x0102;
// nvToolsExtMem.h: NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR. Memory of such a
// heap may be accessed only inside its registered regions.
constexpr uint32_t kHeapUsageSubAllocator = 0x1;
// nvToolsExtMem.h: NVTX_MEM_TYPE_VIRTUAL_ADDRESS (linear, UVA: cuMemAlloc).
constexpr uint32_t kMemTypeVirtualAddress = 0x1;
// nvToolsExtMem.h: NVTX_MEM_REGION_REF_TYPE_POINTER, a region named by its
// start address.
constexpr uint32_t kRegionRefPointer = 0x1;

// nvToolsExtMem.h: nvtxMemVirtualRangeDesc_v1.
struct VirtualRange {
    size_t size;
    const void *ptr;
};
static_assert(sizeof(VirtualRange) == 16 && offsetof(VirtualRange, ptr) == 8, "nvtxMemVirtualRangeDesc_v1");

// nvToolsExtMem.h: nvtxMemHeapDesc_v1. The message is nvtxMessageValue_t, a
// union of pointers (nvToolsExt.h); category and message stay 0: unnamed.
struct HeapDesc {
    uint16_t ext_compat_id;
    uint16_t struct_size;
    uint32_t reserved0;
    uint32_t usage;
    uint32_t type;
    size_t type_specific_desc_size;
    const void *type_specific_desc;
    uint32_t category;
    uint32_t message_type;
    const void *message;
};
static_assert(sizeof(HeapDesc) == 48 && offsetof(HeapDesc, usage) == 8 && offsetof(HeapDesc, type_specific_desc) == 24 &&
                  offsetof(HeapDesc, message) == 40,
              "nvtxMemHeapDesc_v1");

// nvToolsExtMem.h: nvtxMemRegionsRegisterBatch_v1. With virtual-address
// regions the handles out may be NULL: a region is then named by its address.
struct RegionsRegisterBatch {
    uint16_t ext_compat_id;
    uint16_t struct_size;
    uint32_t region_type;
    void *heap;
    size_t region_count;
    size_t region_desc_element_size;
    const void *region_desc_elements;
    void **region_handle_elements_out;
};
static_assert(sizeof(RegionsRegisterBatch) == 48 && offsetof(RegionsRegisterBatch, heap) == 8 &&
                  offsetof(RegionsRegisterBatch, region_desc_elements) == 32,
              "nvtxMemRegionsRegisterBatch_v1");

// nvToolsExtMem.h: nvtxMemRegionsUnregisterBatch_v1; the elements are
// nvtxMemRegionRef_t, a union of a pointer and a handle (8 bytes).
struct RegionsUnregisterBatch {
    uint16_t ext_compat_id;
    uint16_t struct_size;
    uint32_t ref_type;
    size_t ref_count;
    size_t ref_element_size;
    const void *const *ref_elements;
};
static_assert(sizeof(RegionsUnregisterBatch) == 32 && offsetof(RegionsUnregisterBatch, ref_elements) == 24,
              "nvtxMemRegionsUnregisterBatch_v1");

// What the attached tool implements, with the domain the arena's calls use
// (nvtxDomainCreateA("harena"), or NULL, the default domain, when the tool
// does not create domains). Signatures as nvToolsExtMem.h declares them.
struct MemApi {
    void *domain = nullptr;
    void *(*heap_register)(void *domain, const HeapDesc *desc) = nullptr;
    void (*heap_unregister)(void *domain, void *heap) = nullptr;
    void (*regions_register)(void *domain, const RegionsRegisterBatch *batch) = nullptr;
    void (*regions_unregister)(void *domain, const RegionsUnregisterBatch *batch) = nullptr;
};

// The tool's memory API, or null when none is attached: NVTX_INJECTION64_PATH
// unset, the library or its entry points missing, its initialization failed,
// or the heap and region calls not provided. Looked up once, at the first
// call: compute-sanitizer wants CUDA initialized before the first NVTX call,
// so the first device arena's region makes it.
const MemApi *mem_api();

// Whether mem_api() has found a tool; never looks for one itself.
bool attached();

// HARENA_NVTX_TRACE=1 (read at the lookup): what the lookup found, and every
// heap and region call, on stderr, to tell from a GPU run what the tool was told.
bool tracing();
[[gnu::format(printf, 1, 2)]] void trace(const char *format, ...);

}  // namespace harena::detail::nvtx
