// The arena's event counters behind harena_get_stats (the allocation and
// reclaim counts ride on the state word instead, see core/arena_core.h). Owned
// by stats/stats.cpp; the paths that see an event count it through these calls.
#pragma once

#include <atomic>
#include <cstdint>

#include "harena/runtime.h"

namespace harena::detail {

class Stats {
public:
    void overflow();
    // An overflow sent to the default allocator: true for the first one,
    // which the caller notices.
    [[nodiscard]] bool fallback();
    void eviction(uint64_t bytes);
    // One run of a planned parallel loop's slots (harena_pipeline_slots).
    void slots(uint64_t taken, uint64_t missed, uint64_t high_water);
    // A frame was pushed, making the stack `depth` deep. Every push counts
    // it: inline, so that a push makes no call for it.
    void pushed(uint32_t depth) {
        frames_pushed_++;
        max_depth_ = depth > max_depth_ ? depth : max_depth_;
    }

    // The counters' part of harena_get_stats: events since the last reset,
    // allocations and reclaims as totals minus the baselines.
    void report(harena_stats &stats, uint64_t allocation_total, uint64_t reclaim_total) const;
    // Starts counting again from the given totals and depth.
    void reset(uint64_t allocation_total, uint64_t reclaim_total, uint32_t depth);

private:
    // Written by overflows and evictions from any thread: away from the
    // fields of other features.
    alignas(64) std::atomic<uint64_t> overflows_{0};
    std::atomic<uint64_t> fallbacks_{0};
    std::atomic<bool> fallback_noticed_{false};
    std::atomic<uint64_t> evictions_{0};  // buffers moved out of a popping frame
    std::atomic<uint64_t> evicted_bytes_{0};
    std::atomic<uint64_t> slot_tasks_{0};
    std::atomic<uint64_t> slot_fallbacks_{0};
    std::atomic<uint64_t> slot_high_water_{0};
    uint64_t allocation_baseline_ = 0;  // counts at the last reset
    uint64_t reclaim_baseline_ = 0;
    uint64_t frames_pushed_ = 0;
    uint32_t max_depth_ = 0;
};

}  // namespace harena::detail
