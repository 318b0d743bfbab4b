// The arena object behind the opaque harena_arena handle, shared by the
// runtime's source files and the override. Fields written only at creation
// come first; the allocation hot path writes one cache line.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "harena/cuda.h"
#include "harena/runtime.h"
#include "nvtx_regions.h"
#include "slice_log.h"

namespace harena::detail {

// Marks a live arena; cleared by harena_destroy. Entry points consult the
// registry (check_live) rather than this, which they could only read by
// dereferencing the pointer; what is left of it is a debugging aid.
constexpr uint64_t kArenaMagic = 0x68617265'6e61'0e14ULL;

// Where the memory comes from; a measuring arena has none and only records
// what planned pipelines ask for (measure.cpp).
enum class Backing { host,
                     device,
                     user,
                     measure };

struct Frame {
    uint64_t id;
    uint64_t offset;     // from the arena base
    uint64_t reserved;   // bytes at offset kept for the pusher's own placement
    bool pipeline;       // pushed by harena_pipeline_enter
    bool scope_owned;    // pushed by harena_scope_begin: only harena_scope_end pops it
    harena_scope scope;  // a pipeline frame's activation on the entering thread
};

// Debug and guard modes: what is allocated and not yet freed, so that every
// free is checked against it (and debug mode reports what is left at a pop).
struct LiveAllocation {
    uint64_t offset;
    uint64_t bytes;      // of the slice: the request rounded up, band included
    uint64_t requested;  // what the caller asked for
    std::string name;
};

// Guard mode: the band after a slice, offsets from the arena's base. The
// slice is [slice, begin), the band [begin, end); a band before a frame's
// first slice has slice == begin and `before` set.
struct GuardBand {
    uint64_t slice;
    uint64_t begin;
    uint64_t end;
    bool before;
    std::string buffer;    // for messages: "buffer 'f'", "halide_buffer_t 0x... (float32, 64x64)"
    std::string pipeline;  // "pipeline 'p'", or empty when not known
};

// What an allocation is called in messages: a caller's name, a buffer's
// shape, or nothing. Formatted only when a message or a debug record needs it.
struct AllocationName {
    const char *name = nullptr;
    const halide_buffer_t *buffer = nullptr;

    bool known() const {
        return name != nullptr || buffer != nullptr;
    }
    std::string text() const;
};

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

}  // namespace harena::detail

struct harena_arena {
    uint64_t magic = 0;
    const halide_device_interface_t *device_interface = nullptr;
    void *user_context = nullptr;  // the creator's, for messages and the device backend
    uint64_t base = 0;
    uint64_t capacity = 0;
    uint64_t alignment = 0;
    int32_t overflow_policy = HARENA_OVERFLOW_ERROR;
    bool debug = false;
    bool grow = false;  // harena_options.grow
    // debug || guard || nvtx: the one test the allocation and free paths make
    // before the work those modes add (update_watched keeps it current).
    bool watched = false;
    uint64_t guard = 0;  // guard mode: bytes of each band (a multiple of the alignment); 0 when off
    harena::detail::Backing backing = harena::detail::Backing::user;
    // Identifies the arena and its region: unique among all arenas, renewed
    // when the region is replaced, so a graph captured in one region is never
    // replayed in another.
    uint64_t generation = 0;
    void *host_block = nullptr;       // host backend
    halide_buffer_t device_buffer{};  // device backend: the buffer the memory is bound to
    halide_dimension_t device_dims[2]{};
    // Device arenas while a memory checker is attached (nvtx_regions.h);
    // null otherwise, so that each hook of the allocation paths is one test.
    // Changes only with the region, while no allocation runs.
    harena::detail::NvtxHeap *nvtx = nullptr;

    // Written by every allocation: one line, away from the fields above.
    alignas(64) std::atomic<uint64_t> state{0};  // offset, reclaim and allocation counts, see kOffsetBits
    // Where the newest allocation begins, with the counts of the state it
    // made (see kOffsetBits): valid while the state's counts still match.
    std::atomic<uint64_t> newest{~harena::detail::kOffsetMask};
    std::atomic<uint64_t> high_water{0};
    std::atomic<uint32_t> depth{0};

    alignas(64) std::atomic<uint64_t> overflows{0};
    std::atomic<uint64_t> fallbacks{0};
    std::atomic<bool> fallback_noticed{false};
    std::atomic<uint32_t> attached_scopes{0};
    std::atomic<uint64_t> wanted{0};  // growing arenas: the capacity an overflow asked for
    uint64_t grows = 0;
    std::atomic<uint64_t> evictions{0};  // buffers moved out of a popping frame
    std::atomic<uint64_t> evicted_bytes{0};
    std::atomic<uint64_t> allocation_wraps{0};  // of the allocation count in state, every 2^12
    std::atomic<uint64_t> reclaim_wraps{0};     // of the reclaim count in state, every 2^12
    uint64_t allocation_baseline = 0;           // counts at the last statistics reset
    uint64_t reclaim_baseline = 0;
    uint64_t measured_bytes = 0;  // measuring arenas: the last planned pipeline's request
    uint64_t measured_worst_case_bytes = 0;
    uint64_t frames_pushed = 0;
    uint32_t max_depth = 0;
    uint64_t next_frame_id = 1;
    std::vector<harena::detail::Frame> frames;  // max_frames entries, depth in use

    harena::detail::SliceLog slices;  // device arenas: which buffer holds which slice

    harena_cuda_binding cuda{};      // what the CUDA hooks answer for this arena
    bool owns_stream = false;        // cuda.stream was made by harena_create_cuda_stream
    void *stream_context = nullptr;  // the context it was made in
    // A graph capture in progress (graph_cache.cpp) and what the planned
    // pipeline's entry saw of it.
    struct {
        bool active = false;
        bool entered = false;  // a planned pipeline entered during the capture
        bool refused = false;  // ... and declared itself not capturable
    } capture;

    std::mutex live_mutex;
    std::vector<harena::detail::LiveAllocation> live;

    // Guard mode: the bands not yet checked, and the counts for the statistics.
    std::mutex guard_mutex;
    std::vector<harena::detail::GuardBand> guard_bands;
    uint64_t guard_checks = 0;
    uint64_t guard_damaged = 0;
};

namespace harena::detail {

// A new arena object with the options applied and no memory yet.
harena_arena *new_arena(const halide_device_interface_t *device_interface, const harena_options &options);

// The last step of creation: from here on other threads may find the arena.
// HARENA_ERROR_OUT_OF_MEMORY (reported) when the registry cannot hold it.
int publish(harena_arena *arena, harena_arena **out, const char *function);

// Live arenas, for checks that must not dereference a stale or foreign
// pointer and for finding the arena of an address from any thread.
void register_arena(harena_arena *arena);
void unregister_arena(harena_arena *arena);
bool is_registered(const void *pointer);
harena_arena *find_registered(const halide_device_interface_t *device_interface, uint64_t address);

// Every entry point that takes an arena checks it against the registry
// before reading it. Each thread remembers the last pointer it found
// registered and how many arenas had left the registry then; while none has
// left since, the pointer is still live and the check takes no lock. That
// fast path is inline so that allocation and free stay short.
extern __thread const void *registry_last_live;
extern __thread uint64_t registry_departures_seen;
extern std::atomic<uint64_t> registry_departures;
int check_registered(const void *pointer, const char *function, void *user_context);
// The fast path alone: true when the pointer is certainly live; false says
// only that the registry must be asked.
inline bool known_live(const void *pointer) {
    return pointer != nullptr && pointer == registry_last_live &&
           registry_departures.load(std::memory_order_acquire) == registry_departures_seen;
}
inline int check_live(const void *pointer, const char *function, void *user_context) {
    return known_live(pointer) ? HARENA_OK : check_registered(pointer, function, user_context);
}

inline bool contains(const harena_arena &arena, uint64_t address) {
    return address >= arena.base && address - arena.base < arena.capacity;
}

// Stack operations shared by harena_push/pop, scopes and planned pipelines.
// function names the caller in error messages.
int push_frame(harena_arena &arena, uint64_t reserve_bytes, bool pipeline, harena_frame *frame, const char *function);
// pipeline_exit: only harena_pipeline_exit pops a pipeline's frame, since
// the frame also holds the thread's activation for the run.
int pop_frame(harena_arena &arena, uint64_t frame_id, bool pipeline_exit, const char *function);
// Whether frame_id is pushed and frames pushed after it are still there.
bool frame_is_buried(const harena_arena &arena, uint64_t frame_id);

int bump(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address);

inline void raise_high_water(harena_arena &arena, uint64_t top) {
    uint64_t seen = arena.high_water.load(std::memory_order_relaxed);
    while (top > seen && !arena.high_water.compare_exchange_weak(seen, top, std::memory_order_relaxed)) {
    }
}

inline uint64_t top_of(const harena_arena &arena) {
    return offset_of(arena.state.load(std::memory_order_acquire));
}

// Push and pop only: they do not run concurrently with allocations. The
// newest allocation is no longer known (its counts stop matching).
inline void set_top(harena_arena &arena, uint64_t offset) {
    const uint64_t state = with_offset(arena.state.load(std::memory_order_relaxed), offset);
    arena.newest.store(~state & ~kOffsetMask, std::memory_order_relaxed);
    arena.state.store(state, std::memory_order_relaxed);
}

// Allocations and reclaims since creation. Exact while no allocation or free
// runs; a read that overlaps one may miss the last 2^12 of a count for the
// instant between the exchange that wraps it and the wrap counter's update.
uint64_t allocation_total(const harena_arena &arena);
uint64_t reclaim_total(const harena_arena &arena);

// harena_free after its checks: the arena is live and contains address.
// HARENA_OK; HARENA_ERROR_INVALID_FREE, after reporting it and freeing
// nothing, when address and bytes are not a live allocation (checked against
// the top of the stack, and in debug and guard modes against the record);
// or in guard mode HARENA_ERROR_GUARD_DAMAGED after reporting a damaged band
// (the bytes are released all the same). function names the caller.
int release(harena_arena &arena, uint64_t address, uint64_t bytes, const char *function);

// Guard mode (guard.cpp). guard_slice checks the bands of earlier slices
// that `band`'s bytes overlap (dead buffers), fills `band` and records it;
// guard_release checks and forgets the band of the slice at offset `slice`;
// guard_pop those of a popping frame. user_context: the caller's, for device
// copies on its stream (nullptr: the arena creator's).
int guard_slice(harena_arena &arena, void *user_context, GuardBand band);
int guard_release(harena_arena &arena, void *user_context, uint64_t slice);
int guard_pop(harena_arena &arena, uint64_t frame_offset);

// After debug, guard or nvtx changed (creation, a checker's heap).
inline void update_watched(harena_arena &arena) {
    arena.watched = arena.debug || arena.guard != 0 || arena.nvtx != nullptr;
}

// Applies the environment's switches (HARENA_DEBUG, HARENA_GUARD) to options.
void read_environment(harena_options &options);

// Whether the arena keeps a record of its live allocations (debug and
// guard modes), against which every free is checked.
inline bool keeps_records(const harena_arena &arena) {
    return arena.debug || arena.guard != 0;
}

// Forgets the record of the allocation at offset (no-op without records).
void forget_debug_record(harena_arena &arena, uint64_t offset);

// Backends: obtain and give back the arena's own memory. Acquiring again
// replaces the region: the old one is released only once the new one exists.
int host_acquire(harena_arena &arena, uint64_t capacity);
void host_release(harena_arena &arena);
int device_acquire(harena_arena &arena, uint64_t capacity);
void device_release(harena_arena &arena);

// Sets where the region lies, under the registry's lock, so that lookups by
// address from other threads see the old region or the new one; renews the
// arena's generation.
void relocate(harena_arena &arena, uint64_t base, uint64_t capacity);

// A generation no arena has had yet.
uint64_t next_generation();

// Destroys a stream the runtime made for the arena (cuda_stream.cpp).
void release_cuda_stream(harena_arena &arena);

// Makes the context of the arena's stream current while alive, as the
// driver's stream and graph calls want (nothing when it is not known).
class StreamContextScope {
public:
    explicit StreamContextScope(const harena_arena &arena);
    ~StreamContextScope();
    StreamContextScope(const StreamContextScope &) = delete;
    StreamContextScope &operator=(const StreamContextScope &) = delete;

private:
    bool pushed_ = false;
};

// Growing arenas (growth.cpp): the push at depth 0 calls make_room with what
// the frame reserves; an allocation that does not fit calls want.
void make_room(harena_arena &arena, uint64_t reserve_bytes, const char *function);
inline void want(harena_arena &arena, uint64_t capacity) {
    uint64_t seen = arena.wanted.load(std::memory_order_relaxed);
    while (capacity > seen && !arena.wanted.compare_exchange_weak(seen, capacity, std::memory_order_relaxed)) {
    }
}

// Thread activation, also used by pipeline frames.
void activate(harena_scope *scope, harena_arena *arena);
int deactivate(harena_scope *scope, const char *function);

// While alive, the calling thread has no active scope: calls into Halide's
// default allocator made on the arena's behalf must not come back into it.
class SuspendScopes {
public:
    SuspendScopes();
    ~SuspendScopes();
    SuspendScopes(const SuspendScopes &) = delete;
    SuspendScopes &operator=(const SuspendScopes &) = delete;

private:
    harena_scope *saved_;
};

}  // namespace harena::detail
