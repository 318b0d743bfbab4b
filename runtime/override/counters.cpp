#include "counters.h"

#include "harena/override.h"

namespace harena::override_detail {

Counters &counters() {
    static Counters c;
    return c;
}

}  // namespace harena::override_detail

using harena::override_detail::counters;

extern "C" {

void harena_override_get_counters(harena_override_counters *out) {
    if (out == nullptr) {
        return;
    }
    const auto &c = counters();
    out->device_arena_allocations = c.device_arena_allocations.load(std::memory_order_relaxed);
    out->device_arena_frees = c.device_arena_frees.load(std::memory_order_relaxed);
    out->device_default_allocations = c.device_default_allocations.load(std::memory_order_relaxed);
    out->device_default_frees = c.device_default_frees.load(std::memory_order_relaxed);
    out->heap_arena_allocations = c.heap_arena_allocations.load(std::memory_order_relaxed);
    out->heap_default_allocations = c.heap_default_allocations.load(std::memory_order_relaxed);
}

void harena_override_reset_counters(void) {
    auto &c = counters();
    c.device_arena_allocations = 0;
    c.device_arena_frees = 0;
    c.device_default_allocations = 0;
    c.device_default_frees = 0;
    c.heap_arena_allocations = 0;
    c.heap_default_allocations = 0;
}

}  // extern "C"
