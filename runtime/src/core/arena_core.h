// The core every arena has: its region, the bump word and the frame stack.
// Features keep their own state: the checking feature (debug records, guard
// bands, NVTX heaps) behind `checks` (core/checking.h), growing and
// measuring arenas behind `growth_state` (core/growth.h), the host companion
// behind `companion_state` (core/companion.h), stream order behind
// `streams_state` (core/streams.h). The core's own parts kept in structs
// of their own (the slice log, the CUDA binding, the capture watch,
// statistics) lie beside it (core/arena.h). Fields written only at creation
// (and the allocation limit, written only where bytes cross streams) come
// first; the allocation hot path writes one cache line.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harena/runtime.h"

namespace harena::detail {

// The checking, growth, host companion and stream order features' state of
// an arena (checking/state.h, growth/state.h, companion/state.h,
// streams/state.h), through the hooks of core/checking.h, core/growth.h,
// core/companion.h and core/streams.h.
struct ArenaChecks;
struct ArenaGrowth;
class HostCompanion;
struct StreamOrder;

// Marks a live arena; cleared by harena_destroy. Entry points consult the
// registry (check_live) rather than this, which they could only read by
// dereferencing the pointer; what is left of it is a debugging aid.
constexpr uint64_t kArenaMagic = 0x68617265'6e61'0e14ULL;

// Where the memory comes from; a measuring arena has none.
enum class Backing { host,
                     device,
                     user,
                     none };

// Frame::streams: a stream other than the frame's own allocated or freed in
// it; its stream is not the one of the frame below it (home_before).
constexpr uint8_t kOtherStreamUsed = 1;
constexpr uint8_t kAboveOtherStream = 2;

struct Frame {
    uint64_t id;
    uint64_t offset;     // from the arena base
    uint64_t reserved;   // bytes at offset kept for the pusher's own placement
    bool pipeline;       // pushed by harena_pipeline_enter
    bool scope_owned;    // pushed by harena_scope_begin: only harena_scope_end pops it
    uint8_t streams;     // kOtherStreamUsed, kAboveOtherStream: its pop has stream work (core/streams.h)
    harena_scope scope;  // a pipeline frame's activation on the entering thread
};
// A frame is one cache line: pushes and pops measurably slow down when
// frames straddle two.
static_assert(sizeof(Frame) == 64, "a frame fills one cache line");

inline uint64_t round_up(uint64_t value, uint64_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

// An allocation is one compare-and-swap on a single word that holds the
// offset of the first free byte (low 40 bits, so arenas below 1 TiB), the
// number of LIFO frees that moved it back (next 12 bits) and the number of
// allocations (high 12 bits), both modulo 2^12; each wrap of a count bumps a
// separate counter. The counts ride on the exchange that moves the offset, so
// counting costs no locked instruction of its own.
constexpr int kOffsetBits = 40;
constexpr int kCountBits = 12;
constexpr uint64_t kOffsetMask = (uint64_t(1) << kOffsetBits) - 1;
constexpr int kReclaimShift = kOffsetBits;
constexpr uint64_t kOneReclaim = uint64_t(1) << kReclaimShift;
constexpr uint64_t kReclaimMask = ((uint64_t(1) << kCountBits) - 1) << kReclaimShift;
constexpr int kAllocationShift = kOffsetBits + kCountBits;  // the top bits: a wrap carries out of the word
constexpr uint64_t kOneAllocation = uint64_t(1) << kAllocationShift;
constexpr uint64_t kMaxCapacity = kOffsetMask;
// harena_options.max_frames at most: the stack is allocated whole at creation.
constexpr uint32_t kMaxFrames = uint32_t(1) << 16;
static_assert(kAllocationShift + kCountBits == 64, "the state word holds exactly the offset and two counts");

inline uint64_t offset_of(uint64_t state) {
    return state & kOffsetMask;
}

inline uint64_t with_offset(uint64_t state, uint64_t offset) {
    return (state & ~kOffsetMask) | offset;
}

// state with one more reclaim; at 2^12 the field wraps to 0 instead of
// carrying into the allocation count.
inline uint64_t with_one_more_reclaim(uint64_t state) {
    return (state & kReclaimMask) == kReclaimMask ? state & ~kReclaimMask : state + kOneReclaim;
}

struct ArenaCore {
    uint64_t magic = 0;
    const halide_device_interface_t *device_interface = nullptr;
    void *user_context = nullptr;  // the creator's, for messages and the device backend
    uint64_t base = 0;
    // The capacity, or where the lowest free byte last used on another stream
    // than the top frame's begins if that is lower (core/streams.h): an
    // allocation that ends at or below it fits and crosses no stream. Read
    // by every allocation, written only where bytes cross streams.
    std::atomic<uint64_t> alloc_limit{0};
    uint64_t alignment = 0;
    int32_t overflow_policy = HARENA_OVERFLOW_ERROR;
    // Whether the checking feature must see each allocation and free (debug
    // records, guard bands, an NVTX heap): the one test the allocation and
    // free paths make before that work (update_watched in core/arena.h
    // keeps it current).
    bool watched = false;
    // Guard mode: bytes of the band after each slice, and before and after a
    // frame's reservation (a multiple of the alignment); 0 when off. Part of
    // every slice's size, so the allocation path reads it here.
    uint64_t band_bytes = 0;
    uint64_t capacity = 0;
    ArenaChecks *checks = nullptr;             // the checking feature's, where it is linked
    ArenaGrowth *growth_state = nullptr;       // the growth feature's, where it is linked
    HostCompanion *companion_state = nullptr;  // the host companion feature's, where it is linked
    StreamOrder *streams_state = nullptr;      // stream order's, on device arenas where it is linked
    bool grows = false;                        // a growing arena (harena_options.grow)
    Backing backing = Backing::none;
    // Identifies the arena and its region: unique among all arenas, renewed
    // when the region is replaced, so a graph captured in one region is never
    // replayed in another.
    uint64_t generation = 0;
    void *host_block = nullptr;       // host backend
    halide_buffer_t device_buffer{};  // device backend: the buffer the memory is bound to
    halide_dimension_t device_dims[2]{};

    // Written by every allocation: one line, away from the fields above.
    alignas(64) std::atomic<uint64_t> state{0};  // offset, reclaim and allocation counts, see kOffsetBits
    // Where the newest allocation begins, with the counts of the state it
    // made (see kOffsetBits): valid while the state's counts still match.
    std::atomic<uint64_t> newest{~kOffsetMask};
    std::atomic<uint64_t> high_water{0};
    std::atomic<uint32_t> depth{0};
    // The top frame's stream, and the stream frames pushed without one run
    // on (the CUDA binding's; harena/cuda.h). Written only by pushes, pops
    // and binding changes, none concurrent with allocations.
    void *home_stream = nullptr;
    void *bound_stream = nullptr;

    alignas(64) std::atomic<uint64_t> allocation_wraps{0};  // of the allocation count in state, every 2^12
    std::atomic<uint64_t> reclaim_wraps{0};                 // of the reclaim count in state, every 2^12
    std::atomic<uint32_t> attached_scopes{0};
    uint64_t next_frame_id = 1;
    std::vector<Frame> frames;  // max_frames entries, depth in use
    // Beside each frame above a frame on another stream (kAboveOtherStream):
    // the home before, the stream of the frame below it. A frame's own
    // stream is the home while it is the top (core/streams.h).
    std::vector<void *> home_before;
};

// The allocation path reads the fields up to band_bytes and writes only the
// state's line.
static_assert(offsetof(ArenaCore, band_bytes) + sizeof(uint64_t) <= 64 && offsetof(ArenaCore, state) % 64 == 0,
              "the allocation path's fields share one cache line and its writes another");

inline bool contains(const ArenaCore &arena, uint64_t address) {
    return address >= arena.base && address - arena.base < arena.capacity;
}

inline void raise_high_water(ArenaCore &arena, uint64_t top) {
    uint64_t seen = arena.high_water.load(std::memory_order_relaxed);
    while (top > seen && !arena.high_water.compare_exchange_weak(seen, top, std::memory_order_relaxed)) {
    }
}

inline uint64_t top_of(const ArenaCore &arena) {
    return offset_of(arena.state.load(std::memory_order_acquire));
}

// Push and pop only: they do not run concurrently with allocations. The
// newest allocation is no longer known (its counts stop matching).
inline void set_top(ArenaCore &arena, uint64_t offset) {
    const uint64_t state = with_offset(arena.state.load(std::memory_order_relaxed), offset);
    arena.newest.store(~state & ~kOffsetMask, std::memory_order_relaxed);
    arena.state.store(state, std::memory_order_relaxed);
}

// Allocations and reclaims since creation. Exact while no allocation or free
// runs; a read that overlaps one may miss the last 2^12 of a count for the
// instant between the exchange that wraps it and the wrap counter's update.
uint64_t allocation_total(const ArenaCore &arena);
uint64_t reclaim_total(const ArenaCore &arena);

// Whether no frame is pushed and no scope attached: the region may be
// replaced or the stream changed.
inline bool idle(const ArenaCore &arena) {
    return arena.depth.load(std::memory_order_relaxed) == 0 &&
           arena.attached_scopes.load(std::memory_order_relaxed) == 0;
}

}  // namespace harena::detail
