// Where the override sent each call, for tests and for checking that a loop
// made no driver allocation.
#pragma once

namespace harena::override_detail {

enum class Event {
    device_arena_allocation,
    device_arena_free,
    device_default_allocation,
    device_default_free,
    heap_arena_allocation,
    heap_default_allocation,
};

// Counts one event of the calling thread. Each thread counts in a block that
// only it writes, so counting is a plain load and store with no locked
// instruction; harena_override_get_counters sums the blocks of live threads
// and what exited threads counted.
void count(Event event);

}  // namespace harena::override_detail
