// Loaded kernel modules and their functions, shared by every thread without a
// lock on the way to a launch. A pipeline's kernel source is loaded once per
// context (under a lock of that source alone) and kept for the process's
// life, as Halide keeps what it loads; lookups read published entries only.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

namespace harena::detail::launch {

// The driver calls the table needs, passed in so that the table is plain C++
// (tests give a fake). Each returns 0 or a CUDA error code.
struct ModuleLoader {
    // Loads `size` bytes of kernel source into the current context.
    int (*load)(const char *source, int size, void **module);
    // The function `name` of a loaded module.
    int (*get_function)(void *module, const char *name, void **function);
};

// A module's functions by the address of their name (generated code passes
// the same constant string every time). A slot is claimed once and never
// changes, so readers need no lock; a full table still answers, uncached.
class FunctionCache {
public:
    int function(void *module, const char *name, const ModuleLoader &loader, void **function);

    static constexpr int slot_count = 64;

private:
    struct Slot {
        std::atomic<const char *> name{nullptr};
        std::atomic<void *> function{nullptr};
    };
    Slot slots_[slot_count];
};

// One module loaded in one context.
struct LoadedModule {
    uint64_t context_key = 0;
    void *module = nullptr;
    LoadedModule *next = nullptr;
    FunctionCache functions;
};

// One pipeline's kernel source and its modules, one per context (a list:
// programs use one or a few contexts).
class ModuleSource {
public:
    ModuleSource(const char *source, int size)
        : source_(source), size_(size) {
    }
    ModuleSource(const ModuleSource &) = delete;
    ModuleSource &operator=(const ModuleSource &) = delete;
    ~ModuleSource();

    // The module of the context `context_key` names, loaded on first use
    // (that context must be current).
    int module_for(uint64_t context_key, const ModuleLoader &loader, LoadedModule **module);

    // How many modules were loaded, for tests.
    [[nodiscard]] int modules() const;

private:
    LoadedModule *find(uint64_t context_key) const;

    const char *source_;
    int size_;
    std::atomic<LoadedModule *> head_{nullptr};
    std::mutex load_mutex_;  // taken only to load
};

// The ModuleSource behind a pipeline's state variable, created on its first
// call; null where host memory runs out. Never freed: generated code keeps
// the pointer in a global for the life of the program.
ModuleSource *source_of(void **state, const char *source, int size);

}  // namespace harena::detail::launch
