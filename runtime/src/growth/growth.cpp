// Growing arenas' bookkeeping (state.h): the capacity overflows asked for
// and how often the region grew.
#include "growth/state.h"

namespace harena::detail {

void Growth::want(uint64_t capacity) {
    uint64_t seen = wanted_.load(std::memory_order_relaxed);
    while (capacity > seen && !wanted_.compare_exchange_weak(seen, capacity, std::memory_order_relaxed)) {
    }
}

void Growth::grew() {
    wanted_.store(0, std::memory_order_relaxed);
    grows_++;
}

}  // namespace harena::detail
