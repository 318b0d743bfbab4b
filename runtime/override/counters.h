// Where the override sent each call, for tests and for checking that a loop
// made no driver allocation.
#pragma once

#include <atomic>
#include <cstdint>

namespace harena::override_detail {

struct Counters {
    std::atomic<uint64_t> device_arena_allocations{0};
    std::atomic<uint64_t> device_arena_frees{0};
    std::atomic<uint64_t> device_default_allocations{0};
    std::atomic<uint64_t> device_default_frees{0};
    std::atomic<uint64_t> heap_arena_allocations{0};
    std::atomic<uint64_t> heap_default_allocations{0};
};

Counters &counters();

inline void count(std::atomic<uint64_t> &counter) {
    counter.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace harena::override_detail
