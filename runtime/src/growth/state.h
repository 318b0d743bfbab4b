// Arenas that grow (harena_options.grow): the capacity overflows asked for
// and how many times the region grew, kept by growth/growth.cpp. An
// allocation that does not fit records what it wanted (core/bump.cpp calls
// the feature's hook, core/growth.h); the region is replaced by the
// feature's make_room (growth/abi.cpp), which reads that want and counts
// the growth.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/arena_core.h"
#include "measure/state.h"

namespace harena::detail {

class Growth {
public:
    void configure(bool grow) {
        on_ = grow;
    }
    [[nodiscard]] bool on() const {
        return on_;
    }
    // An allocation that did not fit asks for at least `capacity`.
    void want(uint64_t capacity);
    [[nodiscard]] uint64_t wanted() const {
        return wanted_.load(std::memory_order_relaxed);
    }
    // The region was replaced by a larger one.
    void grew();
    [[nodiscard]] uint64_t grows() const {
        return grows_;
    }
    void reset_count() {
        grows_ = 0;
    }

private:
    bool on_ = false;
    std::atomic<uint64_t> wanted_{0};  // the capacity an overflow asked for
    uint64_t grows_ = 0;
};

// The growth feature's state of one arena (core/growth.h): every arena has
// one while the feature is linked.
struct ArenaGrowth {
    Growth growth;
    Measure measure;  // measuring arenas (harena_create_measuring)
};

inline ArenaGrowth &growth_of(ArenaCore &arena) {
    return *arena.growth_state;
}
inline const ArenaGrowth &growth_of(const ArenaCore &arena) {
    return *arena.growth_state;
}

}  // namespace harena::detail
