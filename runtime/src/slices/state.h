// Which halide_buffer_t holds which slice of an arena. The override binds
// slices to buffers it cannot tell apart: a pipeline's intermediates, freed
// before their frame pops, and its argument buffers (an input that
// halide_copy_to_device uploaded, an output whose device memory the pipeline
// allocated), which the caller keeps after the call. When a frame pops, the
// buffers still holding one of its slices are moved out of the arena
// (evict_buffer), so nothing a caller can still see points into memory
// the next frame reuses.
//
// An open-addressing table keyed by the slice's address: an entry is taken
// when a slice is bound and given back when it is freed, in any order, so the
// table holds as many entries as there are bound slices at once, however the
// threads of a frame interleave their allocations and frees. Binding and
// freeing run on several threads at once without a lock; pops do not run
// concurrently with either (the arena's rule for push and pop).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "HalideRuntime.h"

namespace harena::detail {

class SliceLog {
public:
    // Holds nothing until given a capacity: host arenas never bind slices
    // to buffers.
    SliceLog() = default;
    // Before the arena is published; capacity is a power of two.
    [[nodiscard]] bool set_capacity(uint32_t capacity);

    // Records that buf holds the slice at address; false when every entry
    // holds a bound slice, and then the slice must not be bound.
    [[nodiscard]] bool note(halide_buffer_t *buf, uint64_t address);

    // The slice at address comes back (freed, or never bound after all):
    // gives its entry back. At most one entry has a given address, since the
    // bytes return to the arena only after this call.
    void forget(uint64_t address);

    // Whether no buffer holds a slice: most pops have nothing to drain.
    [[nodiscard]] bool empty() const {
        return live_.load(std::memory_order_acquire) == 0;
    }

    // At a pop where the log is not empty(): calls visit(buffer, address) for
    // each entry whose address is at least `from` (the popping frame's first
    // byte), then gives them back.
    template<typename Visit>
    void drain(uint64_t from, Visit &&visit) {
        for (uint32_t i = 0; i < capacity_; i++) {
            const uint64_t address = entries_[i].address.load(std::memory_order_acquire);
            if (address > kClaimed && address >= from) {
                visit(entries_[i].buffer.load(std::memory_order_relaxed), address);
                entries_[i].address.store(kFreed, std::memory_order_relaxed);
                live_.fetch_sub(1, std::memory_order_relaxed);
            }
        }
    }

private:
    // Entry states besides a bound slice's address (never 0, 1 or 2): empty
    // (never used: ends a lookup), freed (used before: a lookup goes on past
    // it, a note may take it) and claimed (a note is writing it).
    static constexpr uint64_t kEmpty = 0;
    static constexpr uint64_t kFreed = 1;
    static constexpr uint64_t kClaimed = 2;

    uint32_t home(uint64_t address) const;

    struct Entry {
        std::atomic<halide_buffer_t *> buffer{nullptr};
        std::atomic<uint64_t> address{kEmpty};
    };
    std::unique_ptr<Entry[]> entries_;
    uint32_t capacity_ = 0;
    std::atomic<uint32_t> live_{0};  // entries holding a bound slice
};

// Buffers an arena's slices may be bound to at once (a power of two).
constexpr uint32_t kSliceLogCapacity = 4096;

// Moves buf, which still holds the slice at `address` of a popping frame,
// to memory from the device interface's own allocator, contents included;
// *bytes is then its size. Called by the pop (evict_live_slices in core/frames.cpp)
// before the frame's bytes are released, with no scope active; device work
// is ordered on the interface's stream. frame_id names the frame in messages.
int evict_buffer(void *user_context, const halide_device_interface_t *iface, uint64_t frame_id, halide_buffer_t *buf,
                 uint64_t address, uint64_t *bytes);

}  // namespace harena::detail
