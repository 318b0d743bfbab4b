// harena_shrink_to_fit: the region replaced by one just large enough for the
// high water (core/region.cpp replaces it).
#include <algorithm>

#include "core/arena.h"
#include "core/errors.h"

using namespace harena::detail;

extern "C" {

int harena_shrink_to_fit(harena_arena *arena) {
    const char *function = "harena_shrink_to_fit";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (!owns_memory(*arena)) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: arena %p does not own its memory (harena_create_from_memory or a measuring arena); "
                            "only arenas made by harena_create can be resized",
                            function, static_cast<void *>(arena));
    }
    if (!idle(*arena)) {
        return report_error(arena->user_context, HARENA_ERROR_ARENA_IN_USE,
                            "%s: arena %p has %u frame(s) pushed and %u scope(s) attached; shrink it between runs",
                            function, static_cast<void *>(arena), arena->depth.load(),
                            arena->attached_scopes.load());
    }
    const uint64_t used = arena->high_water.load(std::memory_order_relaxed);
    const uint64_t capacity = std::max(round_up(used, arena->alignment), arena->alignment);
    if (capacity >= arena->capacity) {
        return HARENA_OK;
    }
    return replace_region(*arena, capacity);
}

}  // extern "C"
