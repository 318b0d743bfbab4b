// The client side of NVTX's tool-injection protocol, reduced to what the
// arena needs: a domain and the memory extension's heap and region calls.
// Tools that read NVTX annotations (compute-sanitizer, Nsight Systems) set
// NVTX_INJECTION64_PATH to their injection library; a program built with
// NVIDIA's header-only NVTX library loads it at its first NVTX call. The
// runtime implements that loading itself, so that it chooses when the lookup
// happens (after CUDA is initialized, as compute-sanitizer wants), can tell
// whether a tool is attached without calling into one, and can trace what it
// found (HARENA_NVTX_TRACE).
//
// The structures, ids and function types of the API and of the injection
// protocol are NVTX 3's own (nvtx3/ in the CUDA toolkit), included without
// NVTX's loader (NVTX_NO_IMPL), which nvtx/client.cpp replaces.
#pragma once

#ifndef NVTX_NO_IMPL
#define NVTX_NO_IMPL
#endif
#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtMem.h>

namespace harena::detail::nvtx {

// What the attached tool implements, with the domain the arena's calls use
// (nvtxDomainCreateA("harena"), or NULL, the default domain, when the tool
// does not create domains). Signatures as nvToolsExtMem.h declares them.
struct MemApi {
    nvtxDomainHandle_t domain = nullptr;
    decltype(&nvtxMemHeapRegister) heap_register = nullptr;
    decltype(&nvtxMemHeapUnregister) heap_unregister = nullptr;
    decltype(&nvtxMemRegionsRegister) regions_register = nullptr;
    decltype(&nvtxMemRegionsUnregister) regions_unregister = nullptr;
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
