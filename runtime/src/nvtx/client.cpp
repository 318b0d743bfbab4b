// Loads an NVTX injection library the way NVTX's own client does
// (nvtxDetail/nvtxInit.h, then nvtxDetail/nvtxExtInit.h for an extension):
//   1. dlopen the path in NVTX_INJECTION64_PATH;
//   2. core: call its InitializeInjectionNvtx2 with our nvtxGetExportTable;
//      the tool asks that for the callbacks table and, through it, for each
//      module's table of function slots, and fills the slots it implements;
//   3. extension: call its InitializeInjectionNvtxExtension with the memory
//      module's description (nvtxExtModuleInfo_t); the tool fills the
//      module's function slots.
// The core step comes first because NVTX's extension loader runs it first
// (nvtxInitialize(0) in nvtxExtInitOnce) and it is what gives a domain.
#include "nvtx/client.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace harena::detail::nvtx {

namespace {

// Every structure, id and function type below is NVTX 3's own: the public
// headers (nvtx/client.h) bring in nvtxDetail/nvtxTypes.h and nvtxExtTypes.h,
// the types a client and a tool exchange, also without NVTX's loader.

// ---- Core protocol (nvtxDetail/nvtxTypes.h, nvtxDetail/nvtxImpl.h) ----

// A module's function table as nvtxImpl.h lays it out: entry i points to the
// slot for callback id i; entry 0 and one entry past the last id stay null,
// and the size reported is the number of entries less one, i.e. the module's
// NVTX_CBID_*_SIZE. The tool writes its functions through the entries.
template<unsigned kCallbackIds>
struct ModuleTable {
    NvtxFunctionPointer slots[kCallbackIds] = {};
    NvtxFunctionPointer *entries[kCallbackIds + 1] = {};

    ModuleTable() {
        for (unsigned i = 1; i < kCallbackIds; i++) {
            entries[i] = &slots[i];
        }
    }
};

// All six modules are offered, as NVTX's own client does; only CORE2's
// domain slots are read.
ModuleTable<NVTX_CBID_CORE_SIZE> core_table;
ModuleTable<NVTX_CBID_CUDA_SIZE> cuda_table;
ModuleTable<NVTX_CBID_OPENCL_SIZE> opencl_table;
ModuleTable<NVTX_CBID_CUDART_SIZE> cudart_table;
ModuleTable<NVTX_CBID_CORE2_SIZE> core2_table;
ModuleTable<NVTX_CBID_SYNC_SIZE> sync_table;

template<unsigned N>
int hand_out(ModuleTable<N> &table, NvtxFunctionTable *out_table, unsigned *out_size) {
    if (out_table != nullptr) {
        *out_table = table.entries;
    }
    if (out_size != nullptr) {
        *out_size = N;
    }
    return 1;
}

// NvtxExportTableCallbacks::GetModuleFunctionTable: 0 for a module this
// client lacks.
int NVTX_API get_module_function_table(NvtxCallbackModule module, NvtxFunctionTable *out_table, unsigned *out_size) {
    switch (module) {
    case NVTX_CB_MODULE_CORE:
        return hand_out(core_table, out_table, out_size);
    case NVTX_CB_MODULE_CUDA:
        return hand_out(cuda_table, out_table, out_size);
    case NVTX_CB_MODULE_OPENCL:
        return hand_out(opencl_table, out_table, out_size);
    case NVTX_CB_MODULE_CUDART:
        return hand_out(cudart_table, out_table, out_size);
    case NVTX_CB_MODULE_CORE2:
        return hand_out(core2_table, out_table, out_size);
    case NVTX_CB_MODULE_SYNC:
        return hand_out(sync_table, out_table, out_size);
    default:
        return 0;
    }
}

void NVTX_API set_injection_nvtx_version(uint32_t) {
}  // reserved by NVTX; ignored as NVTX's client does

const NvtxExportTableCallbacks callbacks_table{sizeof(NvtxExportTableCallbacks), get_module_function_table};
const NvtxExportTableVersionInfo version_table{sizeof(NvtxExportTableVersionInfo), NVTX_VERSION, 0,
                                               set_injection_nvtx_version};

const void *NVTX_API get_export_table(uint32_t id) {
    switch (id) {
    case NVTX_ETID_CALLBACKS:
        return &callbacks_table;
    case NVTX_ETID_VERSIONINFO:
        return &version_table;
    default:
        return nullptr;
    }
}

// ---- Extension protocol (nvtxDetail/nvtxExtTypes.h, nvtxExtInit.h) ----

// The memory module's one segment, as the NVTX of CUDA 13 describes it
// (nvtxDetail/nvtxExtImplMem_v1.h, NVTX_EXT_MEM_SLOT_COUNT, defined only in
// NVTX's loader) and compute-sanitizer 2025.3 fills it: id 1, 63 slots, the
// tool writing the function of callback id NVTX3EXT_CBID_* into that slot.
// (NVTX's own client keeps the module's state in the word before the slots;
// this client keeps it in `found` and `api` instead.)
constexpr size_t kMemSegmentId = 1;
constexpr size_t kMemSlotCount = 63;
static_assert(NVTX3EXT_CBID_nvtxMemRegionsUnregister < kMemSlotCount, "the memory module's slots");
// nvtxExtImpl.h: slot values below this are states (NVTX_EXTENSION_FRESH 0,
// DISABLED 1, STARTING 2, LOADED 3), not functions.
constexpr intptr_t kFirstFunction = 4;

intptr_t mem_slots[kMemSlotCount] = {};

// ---- Lookup ----

std::atomic<bool> found{false};
bool trace_enabled = false;

template<typename F>
F slot_function(intptr_t value) {
    return value >= kFirstFunction ? reinterpret_cast<F>(value) : nullptr;
}

// Steps 2 and 3 on the loaded library; false (traced) when the memory API is
// not there to use. The library stays loaded either way: the tool may keep
// pointers into this client.
bool initialize(void *library, NvtxExtInitializeInjectionFunc_t extension, MemApi &api) {
    auto core = reinterpret_cast<NvtxInitializeInjectionNvtxFunc_t>(dlsym(library, "InitializeInjectionNvtx2"));
    const int core_status = core != nullptr ? core(get_export_table) : 0;
    trace("InitializeInjectionNvtx2 %s %d", core != nullptr ? "returned" : "is missing:", core_status);
    auto create = reinterpret_cast<decltype(&nvtxDomainCreateA)>(core2_table.slots[NVTX_CBID_CORE2_DomainCreateA]);
    if (core_status != 0 && create != nullptr) {
        api.domain = create("harena");
    }
    trace("domain 'harena' is %p%s", api.domain, api.domain == nullptr ? " (the default domain)" : "");
    nvtxExtModuleSegment_t segment{kMemSegmentId, kMemSlotCount, mem_slots};
    nvtxExtModuleInfo_t module{NVTX_VERSION, sizeof(nvtxExtModuleInfo_t), NVTX_EXT_MODULEID_MEM, NVTX_EXT_COMPATID_MEM,
                               1, &segment, nullptr, nullptr};
    const int status = extension(&module);
    api.heap_register = slot_function<decltype(api.heap_register)>(mem_slots[NVTX3EXT_CBID_nvtxMemHeapRegister]);
    api.heap_unregister = slot_function<decltype(api.heap_unregister)>(mem_slots[NVTX3EXT_CBID_nvtxMemHeapUnregister]);
    api.regions_register = slot_function<decltype(api.regions_register)>(mem_slots[NVTX3EXT_CBID_nvtxMemRegionsRegister]);
    api.regions_unregister = slot_function<decltype(api.regions_unregister)>(mem_slots[NVTX3EXT_CBID_nvtxMemRegionsUnregister]);
    trace("InitializeInjectionNvtxExtension(memory module %u, compat 0x%04x) returned %d; heap register %p, "
          "heap unregister %p, regions register %p, regions unregister %p",
          NVTX_EXT_MODULEID_MEM, NVTX_EXT_COMPATID_MEM, status, reinterpret_cast<void *>(api.heap_register),
          reinterpret_cast<void *>(api.heap_unregister), reinterpret_cast<void *>(api.regions_register),
          reinterpret_cast<void *>(api.regions_unregister));
    if (status == 0 || !api.heap_register || !api.heap_unregister || !api.regions_register ||
        !api.regions_unregister) {
        trace("the tool does not take the heap and region calls: nothing is registered");
        return false;
    }
    return true;
}

const MemApi *look_up() {
    const char *flag = std::getenv("HARENA_NVTX_TRACE");
    trace_enabled = flag != nullptr && std::strcmp(flag, "1") == 0;
    const char *path = std::getenv("NVTX_INJECTION64_PATH");
    if (path == nullptr || *path == '\0') {
        trace("NVTX_INJECTION64_PATH is not set: no tool attached, nothing is registered");
        return nullptr;
    }
    // RTLD_LAZY as NVTX's loader.
    void *library = dlopen(path, RTLD_LAZY);
    if (library == nullptr) {
        trace("cannot load NVTX_INJECTION64_PATH=%s: %s", path, dlerror());
        return nullptr;
    }
    auto extension = reinterpret_cast<NvtxExtInitializeInjectionFunc_t>(dlsym(library, "InitializeInjectionNvtxExtension"));
    if (extension == nullptr) {
        trace("%s has no InitializeInjectionNvtxExtension: the tool takes no NVTX memory calls", path);
        dlclose(library);
        return nullptr;
    }
    trace("loaded NVTX_INJECTION64_PATH=%s", path);
    static MemApi api;
    if (!initialize(library, extension, api)) {
        return nullptr;
    }
    found.store(true, std::memory_order_release);
    return &api;
}

}  // namespace

const MemApi *mem_api() {
    static const MemApi *api = look_up();
    return api;
}

bool attached() {
    return found.load(std::memory_order_acquire);
}

bool tracing() {
    return trace_enabled;
}

void trace(const char *format, ...) {
    if (!trace_enabled) {
        return;
    }
    char line[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(line, sizeof(line), format, args);
    va_end(args);
    std::fprintf(stderr, "harena nvtx: %s\n", line);
}

}  // namespace harena::detail::nvtx
