#include "graph/kernel_sources.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace harena::detail {

namespace {

struct KernelFunction {
    std::string_view source;
    const char *name;
    std::unique_ptr<PtxKernelAccess> access;  // analysed on first use
};

struct KernelSources {
    std::mutex mutex;
    std::unordered_map<void *, std::string_view> modules;
    std::unordered_map<void *, KernelFunction> functions;
};

KernelSources &sources() {
    static KernelSources *const s = new KernelSources;  // used until exit, never destroyed
    return *s;
}

}  // namespace

void note_kernel_module(void *module, const char *source, int size) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.modules[module] = std::string_view(source, strnlen(source, static_cast<size_t>(size)));
}

void note_kernel_function(void *function, void *module, const char *name) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto found = s.modules.find(module);
    if (found == s.modules.end()) {
        s.functions.erase(function);
        return;
    }
    KernelFunction &f = s.functions[function];
    if (f.source.data() != found->second.data() || f.name != name) {
        f = KernelFunction{found->second, name, nullptr};
    }
}

bool kernel_access(void *function, PtxKernelAccess *access) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto found = s.functions.find(function);
    if (found == s.functions.end()) {
        return false;
    }
    KernelFunction &f = found->second;
    if (f.access == nullptr) {
        f.access = std::make_unique<PtxKernelAccess>(analyze_ptx_entry(f.source, f.name));
    }
    *access = *f.access;
    return access->known;
}

}  // namespace harena::detail
