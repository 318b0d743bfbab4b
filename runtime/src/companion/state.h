// The host companion of a device arena: host memory for the host-only
// buffers of the GPU pipelines planned into the arena (a CPU stage between
// GPU stages), with a frame stack of its own, one frame per planned call
// (harena_pipeline_host_enter). It is an arena of host memory of its own,
// owned by its device arena and reachable only through it: not registered,
// so harena_find and the host heap hook never see it, and never activated
// on a thread, so no unplanned allocation lands in it. Owned by
// companion/abi.cpp.
//
// Plain host memory, not pinned: its buffers are read and written by the
// CPU only (no device copy has them as source or destination), so pinning
// would cost page-locked memory and a driver call for nothing.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/arena_core.h"

struct harena_arena;

namespace harena::detail {

class HostCompanion {
public:
    // Null until the first planned call that needs host bytes, or
    // harena_reserve_host_companion, creates it. Read by other threads only
    // through the statistics.
    [[nodiscard]] harena_arena *get() const {
        return arena_.load(std::memory_order_acquire);
    }
    // Creates the companion of `owner` with `capacity` bytes (rounded up to
    // the owner's alignment) or, where it exists and is idle, replaces its
    // region by one of at least `capacity`. Reports failures to the owner's
    // user_context; `function` names the caller.
    int reserve(harena_arena &owner, uint64_t capacity, const char *function);
    // Whether a frame is pushed on it (false when there is none).
    [[nodiscard]] bool busy() const;
    // Frees it and its memory; the owner is being destroyed.
    void destroy();

private:
    std::atomic<harena_arena *> arena_{nullptr};
};

// The feature's state of an arena (core/companion.h): every arena has one
// while the feature is linked.
inline HostCompanion &companion_of(ArenaCore &arena) {
    return *arena.companion_state;
}

}  // namespace harena::detail
