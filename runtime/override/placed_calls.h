// Calls of pipelines built without the arena feature, run by the graph cache
// through the override (harena/cuda.h, harena_graph_run). A call runs in a
// frame of its own on the cache's arena, active on the calling thread, so
// that the override serves its device allocations from the arena:
//   - a key's first call records them (call_allocations.h), which places
//     them with the solver;
//   - its second call, captured as a CUDA graph, gets every allocation at
//     its placed offset in a block reserved at the frame's base, as long as
//     it allocates and frees exactly as the recorded call did. From the
//     first difference on, allocations bump after the block and the call is
//     not captured: a later replay could not repeat them;
//   - calls that are not captured run in such a frame too, free of driver
//     allocations.
// The override's entry points (device_override.cpp) ask placed_call_on()
// first; the cache reaches the runners through the table the override
// lends the runtime when it is linked (unplanned_calls.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/allocation_name.h"
#include "call_allocations.h"

struct harena_arena;

namespace harena::override_detail {

class PlacedCall {
public:
    // Recording into `recording`.
    PlacedCall(harena_arena &arena, CallAllocations &recording);
    // Following `recording`'s placement, from the block start() gives.
    PlacedCall(harena_arena &arena, const CallAllocations &recording);

    // The call's frame begins at `base`, where the placement's block lies.
    void start(uint64_t base) {
        base_ = base;
    }

    harena_arena &arena() const {
        return arena_;
    }

    // halide_device_malloc: true with *address the allocation's placed
    // address when the call has followed the recording so far; false when
    // the allocation must bump (and then noted with bumped()).
    bool take_placed(uint64_t bytes, uint64_t *address);
    // A placed allocation could not be bound: the call no longer follows.
    void untake(uint64_t address);
    void bumped(uint64_t address, uint64_t bytes, const harena::detail::AllocationName &name);
    // halide_device_free: true when `address` was placed (its bytes are the
    // block's, nothing to release); false for a bump, noted.
    bool give_back_placed(uint64_t address);

    // Whether every allocation and free matched the recording, and all of
    // them happened.
    bool followed() const {
        return followed_ && next_ == recording_.events().size();
    }
    // The first difference, for the notice; empty while there is none.
    const std::string &difference() const {
        return difference_;
    }

private:
    void diverge(std::string what);

    harena_arena &arena_;
    CallAllocations *writing_ = nullptr;  // set when recording
    const CallAllocations &recording_;
    uint64_t base_ = 0;
    size_t next_ = 0;  // the recorded event the call reaches next
    bool followed_ = true;
    std::string difference_;
    struct Placed {
        uint64_t address;
        uint32_t index;
    };
    std::vector<Placed> live_;  // placed allocations not freed yet
};

// The placed call in progress on this thread (placed_calls.cpp), or null.
// __thread: constant-initialised, so reading it is one thread-relative load.
extern __thread PlacedCall *placed_call_now;

// The placed call in progress on this thread for `arena`, or null. Inline:
// the override asks on every device allocation and free.
inline PlacedCall *placed_call_on(const harena_arena *arena) {
    PlacedCall *call = placed_call_now;
    return call != nullptr && &call->arena() == arena ? call : nullptr;
}

}  // namespace harena::override_detail
