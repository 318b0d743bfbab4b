#include "module_table.h"

#include <new>

namespace harena::detail::launch {

namespace {

// Fibonacci hashing of the name's address, as Halide's compilation cache
// hashes its keys.
int slot_of(const char *name, int probe) {
    const uint64_t h = (reinterpret_cast<uintptr_t>(name) * 0x9E3779B97F4A7C15ull) >> 58;
    return static_cast<int>((h + probe) % FunctionCache::slot_count);
}

}  // namespace

int FunctionCache::function(void *module, const char *name, const ModuleLoader &loader, void **function) {
    for (int probe = 0; probe < slot_count; probe++) {
        Slot &slot = slots_[slot_of(name, probe)];
        const char *held = slot.name.load(std::memory_order_acquire);
        if (held == nullptr) {
            if (int err = loader.get_function(module, name, function)) {
                return err;
            }
            // Claim the slot; a thread that lost the race to another name
            // keeps probing next call, one that lost to the same name finds
            // the same function.
            if (slot.name.compare_exchange_strong(held, name, std::memory_order_acq_rel)) {
                slot.function.store(*function, std::memory_order_release);
            }
            return 0;
        }
        if (held == name) {
            void *cached = slot.function.load(std::memory_order_acquire);
            if (cached != nullptr) {
                *function = cached;
                return 0;
            }
            // Claimed, not yet filled by the thread that claimed it.
            return loader.get_function(module, name, function);
        }
    }
    return loader.get_function(module, name, function);
}

ModuleSource::~ModuleSource() {
    LoadedModule *m = head_.load(std::memory_order_acquire);
    while (m != nullptr) {
        LoadedModule *next = m->next;
        delete m;
        m = next;
    }
}

LoadedModule *ModuleSource::find(uint64_t context_key) const {
    for (LoadedModule *m = head_.load(std::memory_order_acquire); m != nullptr; m = m->next) {
        if (m->context_key == context_key) {
            return m;
        }
    }
    return nullptr;
}

int ModuleSource::module_for(uint64_t context_key, const ModuleLoader &loader, LoadedModule **module) {
    if ((*module = find(context_key)) != nullptr) {
        return 0;
    }
    std::lock_guard<std::mutex> lock(load_mutex_);
    if ((*module = find(context_key)) != nullptr) {
        return 0;
    }
    auto *loaded = new (std::nothrow) LoadedModule;
    if (loaded == nullptr) {
        return -1;
    }
    if (int err = loader.load(source_, size_, &loaded->module)) {
        delete loaded;
        return err;
    }
    loaded->context_key = context_key;
    loaded->next = head_.load(std::memory_order_relaxed);
    head_.store(loaded, std::memory_order_release);
    *module = loaded;
    return 0;
}

int ModuleSource::modules() const {
    int n = 0;
    for (LoadedModule *m = head_.load(std::memory_order_acquire); m != nullptr; m = m->next) {
        n++;
    }
    return n;
}

ModuleSource *source_of(void **state, const char *source, int size) {
    auto *held = static_cast<ModuleSource *>(__atomic_load_n(state, __ATOMIC_ACQUIRE));
    if (held != nullptr) {
        return held;
    }
    auto *made = new (std::nothrow) ModuleSource(source, size);
    if (made == nullptr) {
        return nullptr;
    }
    void *expected = nullptr;
    if (__atomic_compare_exchange_n(state, &expected, static_cast<void *>(made), false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        return made;
    }
    delete made;  // another thread's call came first
    return static_cast<ModuleSource *>(expected);
}

}  // namespace harena::detail::launch
