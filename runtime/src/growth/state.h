// Arenas that grow (harena_options.grow): the capacity overflows asked for
// and how many times the region grew, kept by growth/growth.cpp. An
// allocation that does not fit records what it wanted (core/bump.cpp); the
// region itself is replaced by make_room (core/region.cpp, declared in
// core/arena.h), which reads that want and counts the growth.
#pragma once

#include <atomic>
#include <cstdint>

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

}  // namespace harena::detail
