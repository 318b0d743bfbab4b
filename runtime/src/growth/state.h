// Arenas that grow (harena_options.grow): the capacity overflows asked for
// and how many times the region grew. Owned by growth/growth.cpp, which also
// replaces the region (make_room in core/arena.h).
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
