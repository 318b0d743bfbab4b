// A model of one host arena of the runtime (harena/runtime.h), written from
// the header's contract and not from the runtime's code: the frame stack,
// the top offset, which allocations are live, the statistics, and for each
// call the code it must return and how many messages it must report. The
// runtime fuzz target runs each call on the real arena and on this model and
// compares. Plain data, no runtime calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harena_fuzz {

// runtime.h: an arena holds less than 1 TiB.
constexpr uint64_t kMaxCapacity = (uint64_t(1) << 40) - 1;

// What a call must produce: its return code, the error messages it reports
// (halide_error) and the notices it prints (halide_print).
struct Expect {
    int code = 0;
    int errors = 0;
    int notices = 0;
};

struct ModelFrame {
    uint64_t id;
    uint64_t offset;    // from the base
    uint64_t reserved;  // bytes at offset, rounded up to the alignment
    int scope;          // the scope slot that pushed it; -1 for harena_push
};

struct ModelAllocation {
    uint64_t offset;  // from the base
    uint64_t size;    // bytes it takes: the request rounded up, 0 counting as one alignment unit
    uint64_t bytes;   // bytes requested, what harena_free is given back
    uint8_t tag;      // written at its first and last byte, checked while it is live
};

struct ArenaModel {
    // As created.
    uint64_t capacity = 0;
    uint64_t alignment = 256;
    bool fallback = false;  // HARENA_OVERFLOW_FALLBACK
    bool debug = false;
    bool grow = false;
    bool owns = true;  // harena_create, not harena_create_from_memory
    uint32_t max_frames = 64;

    // State.
    uint64_t top = 0;
    std::vector<ModelFrame> frames;
    std::vector<ModelAllocation> live;  // allocated, not yet freed, in frames still pushed
    uint64_t next_frame_id = 1;
    uint32_t attached = 0;  // attached scopes
    uint64_t wanted = 0;    // growing arenas: the capacity the largest overflow asked for
    bool fallback_noticed = false;

    // Statistics (harena_stats).
    uint64_t high_water = 0, allocations = 0, reclaimed = 0, frames_pushed = 0, overflows = 0, fallbacks = 0;
    uint64_t grows = 0;
    uint32_t max_depth = 0;

    // True when the last push or shrink replaced the region (the base moves).
    bool moved = false;

    // Exact: request 0 takes one alignment unit; more than 2^64 reads as UINT64_MAX.
    uint64_t aligned_size(uint64_t bytes) const;
    bool idle() const {
        return frames.empty() && attached == 0;
    }

    // Each returns what the call must produce and, where it succeeds, applies
    // its effect. `scope` is the slot of a scope pushing its frame, -1 otherwise.
    Expect push(uint64_t reserve, int scope);
    Expect pop(uint64_t frame_id);
    // On success *offset is where the allocation starts.
    Expect alloc(uint64_t bytes, uint64_t *offset);
    // A free of the live allocation at index `which` of `live`.
    Expect free_live(std::size_t which);
    // Whether a free of `bytes` at `offset`, which matches no live
    // allocation, is one the runtime refuses in every mode
    // (HARENA_ERROR_INVALID_FREE, nothing freed): at or above the top, not at
    // a multiple of the alignment, reaching past the top, or larger than the
    // arena. Bytes in the top frame's reservation are not refused (they come
    // back when it pops); the rest is refused only where a mode keeps records.
    bool refused_free(uint64_t offset, uint64_t bytes) const;
    Expect shrink_to_fit();
    void reset_stats();

private:
    Expect overflow(uint64_t size);
    // Debug mode: one message per allocation of the popped frame still live.
    Expect pop_top();
};

}  // namespace harena_fuzz
