#include "graph/kernel_sources.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <utility>

namespace harena::detail {

namespace {

struct KernelFunction {
    std::string_view source;
    const char *name;
    std::unique_ptr<PtxKernelAccess> access;  // analysed on first use
};

// A handle within its context.
using Handle = std::pair<uint64_t, void *>;

struct KernelSources {
    std::mutex mutex;
    std::map<Handle, std::string_view> modules;
    std::map<Handle, KernelFunction> functions;
};

KernelSources &sources() {
    static KernelSources *const s = new KernelSources;  // used until exit, never destroyed
    return *s;
}

}  // namespace

void note_kernel_module(uint64_t context, void *module, const char *source, int size) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    s.modules[{context, module}] = std::string_view(source, strnlen(source, static_cast<size_t>(size)));
}

void note_kernel_function(uint64_t context, void *function, void *module, const char *name) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto found = s.modules.find({context, module});
    if (found == s.modules.end()) {
        s.functions.erase({context, function});
        return;
    }
    KernelFunction &f = s.functions[{context, function}];
    if (f.source.data() != found->second.data() || f.name != name) {
        f = KernelFunction{found->second, name, nullptr};
    }
}

bool kernel_access(uint64_t context, void *function, PtxKernelAccess *access) {
    KernelSources &s = sources();
    const std::lock_guard<std::mutex> lock(s.mutex);
    const auto found = s.functions.find({context, function});
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
