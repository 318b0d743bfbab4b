// Which halide_buffer_t holds which slice of an arena. The override binds
// slices to buffers it cannot tell apart: a pipeline's intermediates, freed
// before their frame pops, and its argument buffers (an input that
// halide_copy_to_device uploaded, an output whose device memory the pipeline
// allocated), which the caller keeps after the call. When a frame pops, the
// buffers still holding one of its slices are moved out of the arena
// (evict_live_slices), so nothing a caller can still see points into memory
// the next frame reuses.
//
// Entries are appended and freed by several threads at once (parallel loops
// allocate) without a lock; pops do not run concurrently with either (the
// arena's rule for push and pop).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "HalideRuntime.h"

struct harena_arena;

namespace harena::detail {

class SliceLog {
public:
    // Holds nothing until given a capacity: host arenas never bind slices
    // to buffers.
    SliceLog() = default;
    // Before the arena is published.
    [[nodiscard]] bool set_capacity(uint32_t capacity);

    // Records that buf holds the slice at address; false when the log is full,
    // and then the slice must not be bound.
    [[nodiscard]] bool note(halide_buffer_t *buf, uint64_t address);

    // The slice at address comes back (freed, or never bound after all):
    // forgets the newest entry for it. At most one live entry has a given
    // address, since the bytes return to the arena only after this call.
    // Forgotten entries at the end of the log, down to `floor` (where the top
    // frame's entries begin), are given back at once, so that loops that
    // allocate and free in one frame, on one thread or several, do not fill it.
    void forget(uint64_t address, uint32_t floor);

    // Entries so far; a frame remembers this at its push.
    [[nodiscard]] uint32_t size() const {
        return size_.load(std::memory_order_acquire);
    }

    // At a pop: calls visit(buffer, address) for each live entry from `from`
    // on, then drops them.
    template<typename Visit>
    void drain(uint32_t from, Visit &&visit) {
        const uint32_t end = size_.load(std::memory_order_acquire);
        for (uint32_t i = from; i < end; i++) {
            const uint64_t address = entries_[i].address.load(std::memory_order_acquire);
            if (address != kEmpty && address != kForgotten) {
                visit(entries_[i].buffer.load(std::memory_order_relaxed), address);
            }
            entries_[i].address.store(kEmpty, std::memory_order_relaxed);
        }
        size_.store(from < end ? from : end, std::memory_order_release);
    }

private:
    // Entry states besides a live slice's address (never 0 or 1): empty
    // (never written, or given back) and forgotten (freed, not yet given back).
    static constexpr uint64_t kEmpty = 0;
    static constexpr uint64_t kForgotten = 1;

    // Gives back the forgotten entries at the end, down to floor.
    void trim(uint32_t floor);

    struct Entry {
        std::atomic<halide_buffer_t *> buffer{nullptr};
        std::atomic<uint64_t> address{kEmpty};
    };
    std::unique_ptr<Entry[]> entries_;
    uint32_t capacity_ = 0;
    std::atomic<uint32_t> size_{0};
};

// Every slice of an arena: what a device arena's log holds at most. Frees that
// are not last-in first-out leave their entries until the frame pops, as they
// leave their bytes.
constexpr uint32_t kSliceLogCapacity = 4096;

// Moves each buffer that still holds a slice of the top frame (entries from
// `first_entry` on) to memory from the device interface's own allocator,
// contents included, and counts it. Called by the pop before the frame's
// bytes are released; device work is ordered on the interface's stream.
void evict_live_slices(harena_arena &arena, uint64_t frame_id, uint32_t first_entry);

}  // namespace harena::detail
