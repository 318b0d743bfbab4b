#include <algorithm>

#include "arena.h"
#include "errors.h"

namespace harena::detail {

namespace {

// Leaked on purpose: arenas destroyed by other static destructors still find it.
struct Registry {
    std::mutex mutex;
    std::vector<harena_arena *> arenas;
};

Registry &registry() {
    static Registry *r = new Registry;
    return *r;
}

}  // namespace

void register_arena(harena_arena *arena) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.arenas.push_back(arena);
}

void unregister_arena(harena_arena *arena) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.arenas.erase(std::remove(r.arenas.begin(), r.arenas.end(), arena), r.arenas.end());
}

bool is_registered(const void *pointer) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    return std::find(r.arenas.begin(), r.arenas.end(), pointer) != r.arenas.end();
}

harena_arena *find_registered(const halide_device_interface_t *device_interface, uint64_t address) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (harena_arena *arena : r.arenas) {
        if (arena->device_interface == device_interface && contains(*arena, address)) {
            return arena;
        }
    }
    return nullptr;
}

int report_bad_arena(const harena_arena *arena, const char *function) {
    if (arena == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: the arena is NULL", function);
    }
    return report_error(nullptr, HARENA_ERROR_NOT_AN_ARENA,
                        "%s: %p is not a live arena (destroyed, or not created by harena_create)", function,
                        static_cast<const void *>(arena));
}

int check_live(const void *pointer, const char *function, void *user_context) {
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
