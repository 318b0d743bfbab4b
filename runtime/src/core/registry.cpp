#include "core/registry.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "core/arena_core.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

// Leaked on purpose: arenas destroyed by other static destructors still find it.
struct Registry {
    std::mutex mutex;
    std::vector<ArenaCore *> arenas;
};

Registry &registry() {
    static Registry *r = new Registry;
    return *r;
}

}  // namespace

// Destroying any arena invalidates every thread's memory of a live pointer
// (check_live in core/registry.h), so a stale handle is still reported.
HARENA_FAST_TLS const void *registry_last_live = nullptr;
HARENA_FAST_TLS uint64_t registry_departures_seen = 0;
std::atomic<uint64_t> registry_departures{0};

void register_arena(ArenaCore *arena) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.arenas.push_back(arena);
}

void unregister_arena(ArenaCore *arena) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.arenas.erase(std::remove(r.arenas.begin(), r.arenas.end(), arena), r.arenas.end());
    registry_departures.fetch_add(1, std::memory_order_release);
}

bool is_registered(const void *pointer) {
    if (pointer != nullptr && pointer == registry_last_live &&
        registry_departures.load(std::memory_order_acquire) == registry_departures_seen) {
        return true;
    }
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (std::find(r.arenas.begin(), r.arenas.end(), pointer) == r.arenas.end()) {
        return false;
    }
    registry_last_live = pointer;
    registry_departures_seen = registry_departures.load(std::memory_order_relaxed);
    return true;
}

uint64_t next_generation() {
    static std::atomic<uint64_t> generations{0};
    return generations.fetch_add(1, std::memory_order_relaxed) + 1;
}

void relocate(ArenaCore &arena, uint64_t base, uint64_t capacity) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    arena.base = base;
    arena.capacity = capacity;
    arena.alloc_limit.store(capacity, std::memory_order_relaxed);  // the old region's stream spans are void
    arena.generation = next_generation();
}

ArenaCore *find_registered_core(const halide_device_interface_t *device_interface, uint64_t address) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (ArenaCore *arena : r.arenas) {
        if (arena->device_interface == device_interface && contains(*arena, address)) {
            return arena;
        }
    }
    return nullptr;
}

int check_registered(const void *pointer, const char *function, void *user_context) {
    if (pointer == nullptr) {
        return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT, "%s: the arena is NULL", function);
    }
    if (!is_registered(pointer)) {
        return report_error(user_context, HARENA_ERROR_NOT_AN_ARENA,
                            "%s: %p is not a live arena (destroyed, never created, or another object)", function,
                            pointer);
    }
    return HARENA_OK;
}

}  // namespace harena::detail
