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
#include "nvtx_client.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace harena::detail::nvtx {

namespace {

// nvToolsExt.h: NVTX_VERSION, passed to the tool in both initializations.
constexpr uint32_t kNvtxVersion = 3;

// ---- Core protocol (nvtxDetail/nvtxTypes.h, nvtxDetail/nvtxImpl.h) ----

using FunctionPointer = void (*)();  // NvtxFunctionPointer

// A module's function table as nvtxImpl.h lays it out: entry i points to the
// slot for callback id i; entry 0 and one entry past the last id stay null,
// and the size reported is the number of entries less one, i.e. the module's
// NVTX_CBID_*_SIZE. The tool writes its functions through the entries.
template<unsigned kCallbackIds>
struct ModuleTable {
    FunctionPointer slots[kCallbackIds] = {};
    FunctionPointer *entries[kCallbackIds + 1] = {};

    ModuleTable() {
        for (unsigned i = 1; i < kCallbackIds; i++) {
            entries[i] = &slots[i];
        }
    }
};

// NvtxCallbackModule and the NVTX_CBID_*_SIZE of each (nvtxTypes.h). All six
// are offered, as NVTX's own client does; only CORE2's domain slots are read.
constexpr int kModuleCore = 1, kModuleCuda = 2, kModuleOpenCl = 3, kModuleCudaRt = 4, kModuleCore2 = 5,
              kModuleSync = 6;
ModuleTable<16> core_table;
ModuleTable<9> cuda_table;
ModuleTable<15> opencl_table;
ModuleTable<7> cudart_table;
ModuleTable<16> core2_table;
ModuleTable<7> sync_table;
// NvtxCallbackIdCore2: NVTX_CBID_CORE2_DomainCreateA.
constexpr unsigned kCore2DomainCreateA = 12;

template<unsigned N>
int hand_out(ModuleTable<N> &table, FunctionPointer ***out_table, unsigned *out_size) {
    if (out_table != nullptr) {
        *out_table = table.entries;
    }
    if (out_size != nullptr) {
        *out_size = N;
    }
    return 1;
}

// NvtxExportTableCallbacks::GetModuleFunctionTable; the module is the
// int-sized enum NvtxCallbackModule. 0 for a module this client lacks.
int get_module_function_table(int module, FunctionPointer ***out_table, unsigned *out_size) {
    switch (module) {
    case kModuleCore:
        return hand_out(core_table, out_table, out_size);
    case kModuleCuda:
        return hand_out(cuda_table, out_table, out_size);
    case kModuleOpenCl:
        return hand_out(opencl_table, out_table, out_size);
    case kModuleCudaRt:
        return hand_out(cudart_table, out_table, out_size);
    case kModuleCore2:
        return hand_out(core2_table, out_table, out_size);
    case kModuleSync:
        return hand_out(sync_table, out_table, out_size);
    default:
        return 0;
    }
}

void set_injection_nvtx_version(uint32_t) {
}  // reserved by NVTX; ignored as NVTX's client does

// nvtxTypes.h: NvtxExportTableCallbacks and NvtxExportTableVersionInfo.
struct ExportTableCallbacks {
    size_t struct_size;
    int (*get_module_function_table)(int module, FunctionPointer ***out_table, unsigned *out_size);
};
struct ExportTableVersionInfo {
    size_t struct_size;
    uint32_t version;
    uint32_t reserved0;
    void (*set_injection_nvtx_version)(uint32_t version);
};
const ExportTableCallbacks callbacks_table{sizeof(ExportTableCallbacks), get_module_function_table};
const ExportTableVersionInfo version_table{sizeof(ExportTableVersionInfo), kNvtxVersion, 0, set_injection_nvtx_version};

// nvtxTypes.h: NvtxExportTableID (NVTX_ETID_CALLBACKS, NVTX_ETID_VERSIONINFO).
constexpr uint32_t kExportTableCallbacks = 1;
constexpr uint32_t kExportTableVersionInfo = 3;

// NvtxGetExportTableFunc_t.
const void *get_export_table(uint32_t id) {
    switch (id) {
    case kExportTableCallbacks:
        return &callbacks_table;
    case kExportTableVersionInfo:
        return &version_table;
    default:
        return nullptr;
    }
}

using InitializeCore = int (*)(const void *(*get_export_table)(uint32_t));  // NvtxInitializeInjectionNvtxFunc_t

// ---- Extension protocol (nvtxDetail/nvtxExtTypes.h, nvtxExtInit.h) ----

// nvtxExtModuleSegment_t.
struct ExtModuleSegment {
    size_t segment_id;
    size_t slot_count;
    intptr_t *function_slots;
};
// nvtxExtModuleInfo_t.
struct ExtModuleInfo {
    uint16_t nvtx_version;
    uint16_t struct_size;
    uint16_t module_id;
    uint16_t compat_id;
    size_t segments_count;
    ExtModuleSegment *segments;
    intptr_t (*get_export_function)(uint32_t id);
    const void *ext_info;
};
static_assert(sizeof(ExtModuleSegment) == 24 && sizeof(ExtModuleInfo) == 40, "nvtxExtModuleInfo_t");

using InitializeExtension = int (*)(ExtModuleInfo *module);  // NvtxExtInitializeInjectionFunc_t

// nvToolsExtMem.h: NVTX_EXT_MODULEID_MEM.
constexpr uint16_t kModuleIdMem = 1;
// The memory module's one segment, as the NVTX of CUDA 13 describes it
// (nvtxDetail/nvtxExtImplMem_v1.h, NVTX_EXT_MEM_SLOT_COUNT) and
// compute-sanitizer 2025.3 fills it: id 1, 63 slots, the tool writing the
// function of callback id i into slot i. (NVTX's own client keeps the
// module's state in the word before the slots; this client keeps it in
// `found` and `api` instead.)
constexpr size_t kMemSegmentId = 1;
constexpr size_t kMemSlotCount = 63;
// NVTX3EXT_CBID_nvtxMem* (nvToolsExtMem.h): ids count from 0.
constexpr size_t kMemHeapRegister = 0, kMemHeapUnregister = 1, kMemRegionsRegister = 3, kMemRegionsUnregister = 5;
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
bool initialize(void *library, InitializeExtension extension, MemApi &api) {
    auto core = reinterpret_cast<InitializeCore>(dlsym(library, "InitializeInjectionNvtx2"));
    const int core_status = core != nullptr ? core(get_export_table) : 0;
    trace("InitializeInjectionNvtx2 %s %d", core != nullptr ? "returned" : "is missing:", core_status);
    auto create = reinterpret_cast<void *(*)(const char *)>(core2_table.slots[kCore2DomainCreateA]);
    if (core_status != 0 && create != nullptr) {
        api.domain = create("harena");
    }
    trace("domain 'harena' is %p%s", api.domain, api.domain == nullptr ? " (the default domain)" : "");
    ExtModuleSegment segment{kMemSegmentId, kMemSlotCount, mem_slots};
    ExtModuleInfo module{static_cast<uint16_t>(kNvtxVersion), sizeof(ExtModuleInfo), kModuleIdMem, NVTX_EXT_COMPATID_MEM,
                         1, &segment, nullptr, nullptr};
    const int status = extension(&module);
    api.heap_register = slot_function<decltype(api.heap_register)>(mem_slots[kMemHeapRegister]);
    api.heap_unregister = slot_function<decltype(api.heap_unregister)>(mem_slots[kMemHeapUnregister]);
    api.regions_register = slot_function<decltype(api.regions_register)>(mem_slots[kMemRegionsRegister]);
    api.regions_unregister = slot_function<decltype(api.regions_unregister)>(mem_slots[kMemRegionsUnregister]);
    trace("InitializeInjectionNvtxExtension(memory module %u, compat 0x%04x) returned %d; heap register %p, "
          "heap unregister %p, regions register %p, regions unregister %p",
          kModuleIdMem, NVTX_EXT_COMPATID_MEM, status, reinterpret_cast<void *>(api.heap_register),
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
    auto extension = reinterpret_cast<InitializeExtension>(dlsym(library, "InitializeInjectionNvtxExtension"));
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
