// The arena's event counters (state.h): each event counted where it happens,
// read and reset by the statistics' entry points (abi.cpp).
#include "stats/state.h"

#include <algorithm>

namespace harena::detail {

void Stats::overflow() {
    overflows_.fetch_add(1, std::memory_order_relaxed);
}

bool Stats::fallback() {
    fallbacks_.fetch_add(1, std::memory_order_relaxed);
    return !fallback_noticed_.exchange(true);
}

void Stats::eviction(uint64_t bytes) {
    evictions_.fetch_add(1, std::memory_order_relaxed);
    evicted_bytes_.fetch_add(bytes, std::memory_order_relaxed);
}

void Stats::slots(uint64_t taken, uint64_t missed, uint64_t high_water) {
    slot_tasks_.fetch_add(taken, std::memory_order_relaxed);
    slot_fallbacks_.fetch_add(missed, std::memory_order_relaxed);
    uint64_t seen = slot_high_water_.load(std::memory_order_relaxed);
    while (high_water > seen && !slot_high_water_.compare_exchange_weak(seen, high_water, std::memory_order_relaxed)) {
    }
}

void Stats::report(harena_stats &s, uint64_t allocation_total, uint64_t reclaim_total) const {
    s.allocations = allocation_total - allocation_baseline_;
    s.reclaimed = reclaim_total - reclaim_baseline_;
    s.frames_pushed = frames_pushed_;
    s.overflows = overflows_.load(std::memory_order_relaxed);
    s.fallbacks = fallbacks_.load(std::memory_order_relaxed);
    s.max_frame_depth = max_depth_;
    s.evictions = evictions_.load(std::memory_order_relaxed);
    s.evicted_bytes = evicted_bytes_.load(std::memory_order_relaxed);
    s.slot_tasks = slot_tasks_.load(std::memory_order_relaxed);
    s.slot_fallbacks = slot_fallbacks_.load(std::memory_order_relaxed);
    s.slot_high_water = slot_high_water_.load(std::memory_order_relaxed);
}

void Stats::reset(uint64_t allocation_total, uint64_t reclaim_total, uint32_t depth) {
    allocation_baseline_ = allocation_total;
    reclaim_baseline_ = reclaim_total;
    overflows_.store(0, std::memory_order_relaxed);
    fallbacks_.store(0, std::memory_order_relaxed);
    evictions_.store(0, std::memory_order_relaxed);
    evicted_bytes_.store(0, std::memory_order_relaxed);
    slot_tasks_.store(0, std::memory_order_relaxed);
    slot_fallbacks_.store(0, std::memory_order_relaxed);
    slot_high_water_.store(0, std::memory_order_relaxed);
    frames_pushed_ = 0;
    max_depth_ = depth;
}

}  // namespace harena::detail
