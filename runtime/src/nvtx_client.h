// The client side of NVTX's tool-injection protocol, reduced to what the
// arena needs: a domain and the memory extension's heap and region calls.
// Tools that read NVTX annotations (compute-sanitizer, Nsight Systems) set
// NVTX_INJECTION64_PATH to their injection library; a program built with
// NVIDIA's header-only NVTX library loads it at its first NVTX call. The
// runtime implements that loading itself, so it builds without NVTX headers
// or a CUDA toolkit and costs nothing when no tool is attached.
//
// The memory extension's structures and constants are NVTX 3's own
// (nvtx3/nvToolsExtMem.h, shipped with the CUDA toolkit), included without
// NVTX's loader (NVTX_NO_IMPL), which nvtx_client.cpp replaces.
#pragma once

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExtMem.h>

namespace harena::detail::nvtx {

// What the attached tool implements, with the domain the arena's calls use
// (nvtxDomainCreateA("harena"), or NULL, the default domain, when the tool
// does not create domains). Signatures as nvToolsExtMem.h declares them.
struct MemApi {
    void *domain = nullptr;
    void *(*heap_register)(void *domain, const nvtxMemHeapDesc_t *desc) = nullptr;
    void (*heap_unregister)(void *domain, void *heap) = nullptr;
    void (*regions_register)(void *domain, const nvtxMemRegionsRegisterBatch_t *batch) = nullptr;
    void (*regions_unregister)(void *domain, const nvtxMemRegionsUnregisterBatch_t *batch) = nullptr;
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
