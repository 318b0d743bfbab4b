// Replacing an arena's region: growing arenas (harena_options.grow, the
// growth feature's make_room) at the push that opens the stack, and
// harena_shrink_to_fit. The region is replaced
// only while no frame is pushed and no scope is attached: then no address
// handed out by the arena can still be in use (a popping frame moves out
// every buffer still bound to it).
#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

bool owns_memory(const harena_arena &arena) {
    return arena.backing == Backing::host || arena.backing == Backing::device;
}

int replace_region(harena_arena &arena, uint64_t capacity) {
    return arena.backing == Backing::device ? device_acquire(arena, capacity) : host_acquire(arena, capacity);
}

}  // namespace harena::detail
