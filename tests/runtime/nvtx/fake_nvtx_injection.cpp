// A stand-in for a tool's NVTX injection library (what compute-sanitizer
// points NVTX_INJECTION64_PATH at): it exports the two entry points of NVTX's
// injection protocol, fills the function slots it is offered with recording
// functions, and checks each structure it receives against NVTX's ABI as a
// tool built with NVTX's headers would see it (layouts from
// c/include/nvtx3 of https://github.com/NVIDIA/NVTX, written out here).
#include "fake_nvtx_injection.h"

#include <cstddef>
#include <cstdint>

using harena_test::FakeNvtxEvent;
using harena_test::FakeNvtxLog;

namespace {

FakeNvtxLog &recorded() {
    static FakeNvtxLog l;
    return l;
}

void check(bool ok, const char *what) {
    if (!ok) {
        recorded().errors.push_back(what);
    }
}

using FunctionPointer = void (*)();

// ---- nvtxDetail/nvtxTypes.h ----
struct ExportTableCallbacks {
    size_t struct_size;
    int (*get_module_function_table)(int module, FunctionPointer ***table, unsigned *size);
};
struct ExportTableVersionInfo {
    size_t struct_size;
    uint32_t version;
    uint32_t reserved0;
    void (*set_injection_nvtx_version)(uint32_t);
};

// ---- nvtxDetail/nvtxExtTypes.h ----
struct ExtModuleSegment {
    size_t segment_id;
    size_t slot_count;
    intptr_t *function_slots;
};
struct ExtModuleInfo {
    uint16_t nvtx_version;
    uint16_t struct_size;
    uint16_t module_id;
    uint16_t compat_id;
    size_t segments_count;
    ExtModuleSegment *segments;
    intptr_t (*get_export_function)(uint32_t);
    const void *ext_info;
};

// ---- nvToolsExtMem.h ----
struct MemVirtualRangeDesc {
    size_t size;
    const void *ptr;
};
struct MemHeapDesc {
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
struct MemRegionsRegisterBatch {
    uint16_t ext_compat_id;
    uint16_t struct_size;
    uint32_t region_type;
    void *heap;
    size_t region_count;
    size_t region_desc_element_size;
    const void *region_desc_elements;
    void **region_handle_elements_out;
};
struct MemRegionsUnregisterBatch {
    uint16_t ext_compat_id;
    uint16_t struct_size;
    uint32_t ref_type;
    size_t ref_count;
    size_t ref_element_size;
    const void *const *ref_elements;
};

constexpr uint16_t kCompatIdMem = 0x0102;  // NVTX_EXT_COMPATID_MEM
int heaps[16];                             // heap handles: addresses of these
int heaps_made = 0;
int the_domain;

uint64_t address_of(const void *p) {
    return reinterpret_cast<uint64_t>(p);
}

void unexpected_call() {
    check(false, "the client called a function slot it has no use for");
}

void *domain_create_a(const char *name) {
    recorded().domain_name = name;
    recorded().domain = &the_domain;
    return &the_domain;
}

void domain_destroy(void *) {
}

void *heap_register(void *domain, const MemHeapDesc *desc) {
    check(desc->ext_compat_id == kCompatIdMem, "heap: extCompatID");
    check(desc->struct_size == 48, "heap: structSize");
    check(desc->usage == 1, "heap: usage is not NVTX_MEM_HEAP_USAGE_TYPE_SUB_ALLOCATOR");
    check(desc->type == 1, "heap: type is not NVTX_MEM_TYPE_VIRTUAL_ADDRESS");
    check(desc->type_specific_desc_size == 16, "heap: typeSpecificDescSize");
    const auto *range = static_cast<const MemVirtualRangeDesc *>(desc->type_specific_desc);
    void *heap = &heaps[heaps_made++ % 16];
    recorded().events.push_back(
        FakeNvtxEvent{FakeNvtxEvent::heap_register, domain, heap, address_of(range->ptr), range->size, 1});
    return heap;
}

void heap_unregister(void *domain, void *heap) {
    recorded().events.push_back(FakeNvtxEvent{FakeNvtxEvent::heap_unregister, domain, heap, 0, 0, 1});
}

void regions_register(void *domain, const MemRegionsRegisterBatch *batch) {
    check(batch->ext_compat_id == kCompatIdMem, "regions register: extCompatID");
    check(batch->struct_size == 48, "regions register: structSize");
    check(batch->region_type == 1, "regions register: regionType is not NVTX_MEM_TYPE_VIRTUAL_ADDRESS");
    check(batch->region_desc_element_size == 16, "regions register: regionDescElementSize");
    const auto *ranges = static_cast<const MemVirtualRangeDesc *>(batch->region_desc_elements);
    for (size_t i = 0; i < batch->region_count; i++) {
        recorded().events.push_back(FakeNvtxEvent{FakeNvtxEvent::region_register, domain, batch->heap,
                                                  address_of(ranges[i].ptr), ranges[i].size,
                                                  static_cast<uint32_t>(batch->region_count)});
    }
}

void regions_unregister(void *domain, const MemRegionsUnregisterBatch *batch) {
    check(batch->ext_compat_id == kCompatIdMem, "regions unregister: extCompatID");
    check(batch->struct_size == 32, "regions unregister: structSize");
    check(batch->ref_type == 1, "regions unregister: refType is not NVTX_MEM_REGION_REF_TYPE_POINTER");
    check(batch->ref_element_size == 8, "regions unregister: refElementSize");
    for (size_t i = 0; i < batch->ref_count; i++) {
        recorded().events.push_back(FakeNvtxEvent{FakeNvtxEvent::region_unregister, domain, nullptr,
                                                  address_of(batch->ref_elements[i]), 0,
                                                  static_cast<uint32_t>(batch->ref_count)});
    }
}

template<typename F>
FunctionPointer erase(F f) {
    return reinterpret_cast<FunctionPointer>(f);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) FakeNvtxLog *fake_nvtx_log() {
    return &recorded();
}

// NvtxInitializeInjectionNvtxFunc_t.
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void *(*get_export_table)(uint32_t)) {
    recorded().core_inits++;
    const auto *callbacks = static_cast<const ExportTableCallbacks *>(get_export_table(1));  // NVTX_ETID_CALLBACKS
    const auto *version = static_cast<const ExportTableVersionInfo *>(get_export_table(3));  // NVTX_ETID_VERSIONINFO
    check(get_export_table(2) == nullptr, "export table 2 (NVTX_ETID_RESERVED0) is not null");
    if (callbacks == nullptr || version == nullptr) {
        check(false, "an export table is missing");
        return 0;
    }
    check(callbacks->struct_size == sizeof(ExportTableCallbacks), "callbacks table: struct_size");
    check(version->struct_size == sizeof(ExportTableVersionInfo) && version->version == 3, "version table");
    version->set_injection_nvtx_version(3);
    // NVTX_CBID_{CORE, CUDA, OPENCL, CUDART, CORE2, SYNC}_SIZE for modules 1 to 6.
    const unsigned sizes[] = {16, 9, 15, 7, 16, 7};
    for (int module = 1; module <= 6; module++) {
        FunctionPointer **table = nullptr;
        unsigned size = 0;
        if (callbacks->get_module_function_table(module, &table, &size) == 0 || table == nullptr) {
            check(false, "a module's function table is missing");
            return 0;
        }
        check(size == sizes[module - 1], "a module's table size");
        check(table[0] == nullptr && table[size] == nullptr, "a module table's first or end entry is not null");
        for (unsigned i = 1; i < size; i++) {
            if (table[i] != nullptr) {
                *table[i] = unexpected_call;
            }
        }
        if (module == 5) {                        // NVTX_CB_MODULE_CORE2
            *table[12] = erase(domain_create_a);  // NVTX_CBID_CORE2_DomainCreateA
            *table[14] = erase(domain_destroy);   // NVTX_CBID_CORE2_DomainDestroy
        }
    }
    check(callbacks->get_module_function_table(7, nullptr, nullptr) == 0, "module 7 exists");
    return 1;
}

// NvtxExtInitializeInjectionFunc_t.
__attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(ExtModuleInfo *module) {
    recorded().extension_inits++;
    check(module->nvtx_version == 3, "module: nvtxVer");
    check(module->struct_size == sizeof(ExtModuleInfo), "module: structSize");
    check(module->module_id == 1, "module: moduleId is not NVTX_EXT_MODULEID_MEM");
    check(module->compat_id == kCompatIdMem, "module: compatId");
    if (module->segments_count != 1 || module->segments[0].segment_id != 1 || module->segments[0].slot_count != 63) {
        check(false, "module: one segment, id 1, of 63 slots");
    }
    intptr_t *slots = module->segments[0].function_slots;  // slot i: NVTX3EXT_CBID_nvtxMem* i
    for (size_t i = 0; i < module->segments[0].slot_count; i++) {
        check(slots[i] == 0, "module: a slot is not NVTX_EXTENSION_FRESH");
    }
    slots[0] = reinterpret_cast<intptr_t>(heap_register);
    slots[1] = reinterpret_cast<intptr_t>(heap_unregister);
    slots[2] = reinterpret_cast<intptr_t>(unexpected_call);  // nvtxMemHeapReset
    slots[3] = reinterpret_cast<intptr_t>(regions_register);
    slots[4] = reinterpret_cast<intptr_t>(unexpected_call);  // nvtxMemRegionsResize
    slots[5] = reinterpret_cast<intptr_t>(regions_unregister);
    return 1;
}

}  // extern "C"
