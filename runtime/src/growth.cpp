// Arenas that grow (harena_options.grow) and shrink (harena_shrink_to_fit).
// The region is replaced only while no frame is pushed and no scope is
// attached: then no address handed out by the arena can still be in use (a
// popping frame moves out every buffer still bound to it).
#include <algorithm>

#include "arena.h"
#include "errors.h"

namespace harena::detail {

namespace {

bool owns_memory(const harena_arena &arena) {
    return arena.backing == Backing::host || arena.backing == Backing::device;
}

int replace_region(harena_arena &arena, uint64_t capacity) {
    return arena.backing == Backing::device ? device_acquire(arena, capacity) : host_acquire(arena, capacity);
}

}  // namespace

void Growth::want(uint64_t capacity) {
    uint64_t seen = wanted_.load(std::memory_order_relaxed);
    while (capacity > seen && !wanted_.compare_exchange_weak(seen, capacity, std::memory_order_relaxed)) {
    }
}

void Growth::grew() {
    wanted_.store(0, std::memory_order_relaxed);
    grows_++;
}

void make_room(harena_arena &arena, uint64_t reserve_bytes, const char *function) {
    // A frame larger than any arena fails whatever the region, so it asks
    // for no growth (and the rounding below cannot wrap).
    if (!arena.growth.on() || !owns_memory(arena) || !idle(arena) || reserve_bytes > kMaxCapacity) {
        return;
    }
    const uint64_t needed = std::max(round_up(reserve_bytes, arena.alignment), arena.growth.wanted());
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
    arena.growth.grew();
}

}  // namespace harena::detail

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
