// Replacing an arena's region: growing arenas (harena_options.grow) at the
// push that opens the stack, and harena_shrink_to_fit. The region is replaced
// only while no frame is pushed and no scope is attached: then no address
// handed out by the arena can still be in use (a popping frame moves out
// every buffer still bound to it).
#include <algorithm>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

bool owns_memory(const harena_arena &arena) {
    return arena.backing == Backing::host || arena.backing == Backing::device;
}

int replace_region(harena_arena &arena, uint64_t capacity) {
    return arena.backing == Backing::device ? device_acquire(arena, capacity) : host_acquire(arena, capacity);
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
