// The growth feature's hooks (core/growth.h): growing arenas, which replace
// their region at the push that opens the stack when it is too small, and
// measuring arenas (measure/). Installed when this file is linked:
// the feature library's link options name harena_growth_feature. Also
// harena_shrink_to_fit: the region replaced by one just large enough for
// the high water (core/region.cpp replaces it).
#include <algorithm>
#include <new>

#include "core/arena.h"
#include "core/errors.h"
#include "growth/state.h"

namespace harena::detail {

namespace {

bool create(harena_arena &arena, bool grow) {
    arena.growth_state = new (std::nothrow) ArenaGrowth;
    if (arena.growth_state == nullptr) {
        return false;
    }
    arena.growth_state->growth.configure(grow);
    arena.grows = grow;
    return true;
}

void destroy(harena_arena &arena) {
    delete arena.growth_state;
    arena.growth_state = nullptr;
}

void overflowed(harena_arena &arena, uint64_t capacity) {
    growth_of(arena).growth.want(capacity);
}

void make_room(harena_arena &arena, uint64_t reserve_bytes, const char *function) {
    Growth &g = growth_of(arena).growth;
    // A frame larger than any arena fails whatever the region, so it asks
    // for no growth (and the rounding below cannot wrap).
    if (!g.on() || !owns_memory(arena) || !idle(arena) || reserve_bytes > kMaxCapacity) {
        return;
    }
    const uint64_t needed = std::max(round_up(reserve_bytes, arena.alignment), g.wanted());
    if (needed <= arena.capacity) {
        return;
    }
    const uint64_t doubled = arena.capacity <= kMaxCapacity / 2 ? 2 * arena.capacity : kMaxCapacity;
    const uint64_t capacity = std::min(std::max(doubled, round_up(needed, arena.alignment)), kMaxCapacity);
    const uint64_t old_capacity = arena.capacity;
    if (replace_region(arena, capacity) != HARENA_OK) {
        // The arena keeps its region; the push reports what does not fit.
        report_notice(arena.user_context, "%s: arena %p could not grow from %s to %s; it stays as it was", function,
                      static_cast<void *>(&arena), bytes_text(old_capacity).text, bytes_text(capacity).text);
        return;
    }
    g.grew();
}

bool measured(harena_arena &arena, uint64_t bytes, uint64_t worst_case_bytes) {
    return growth_of(arena).measure.take(bytes, worst_case_bytes);
}

uint64_t grows(const harena_arena &arena) {
    return growth_of(arena).growth.grows();
}

void reset_stats(harena_arena &arena) {
    growth_of(arena).growth.reset_count();
}

const GrowthHooks kHooks = {create, destroy, overflowed, make_room, measured, grows, reset_stats};

[[maybe_unused]] const bool installed = (install_growth(&kHooks), true);

}  // namespace

}  // namespace harena::detail

// What the feature library's link options name, so that this file is linked.
extern "C" const void *const harena_growth_feature = &harena::detail::kHooks;

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
