// The arena object behind the opaque harena_arena handle: the core's state
// (region, bump word, frames; core/arena_core.h) and the core's parts that
// keep a struct of their own (the slice log, the CUDA binding, the capture
// watch, statistics). Features are no members: each keeps its state of the
// arena behind one pointer of ArenaCore and attaches through its hook table
// (core/checking.h, core/growth.h, core/companion.h, core/streams.h). The
// functions here compose the core: allocation, free, push and pop, which
// call a feature only where the arena's flags say it must see them. Within
// a feature, only abi.cpp includes this header (tests/layout/check_includes.py).
#pragma once

#include "core/allocation_name.h"
#include "core/arena_core.h"
#include "core/capture_watch.h"
#include "core/checking.h"
#include "core/companion.h"
#include "core/growth.h"
#include "core/registry.h"
#include "core/streams.h"
#include "cuda/state.h"
#include "harena/guard_layout.h"
#include "slices/state.h"
#include "stats/state.h"

struct harena_arena : harena::detail::ArenaCore {
    harena::detail::SliceLog slices;  // device arenas: which buffer holds which slice
    harena::detail::CudaBinding cuda;
    harena::detail::CaptureWatch capture;
    harena::detail::Stats stats;
};

namespace harena::detail {

// The arena's host companion, or null (none yet, or the feature not linked).
inline harena_arena *companion_arena(const harena_arena &arena) {
    return arena.companion_state != nullptr ? host_companion->host(arena) : nullptr;
}

// A new arena object with the options applied and no memory yet.
harena_arena *new_arena(const halide_device_interface_t *device_interface, const harena_options &options);
// Deletes an arena new_arena made, with its features' state; its memory is
// the caller's to release first.
void delete_arena(harena_arena *arena);

// The last step of creation: from here on other threads may find the arena.
// HARENA_ERROR_OUT_OF_MEMORY (reported) when the registry cannot hold it.
int publish(harena_arena *arena, harena_arena **out, const char *function);

// Applies the environment's switches (HARENA_DEBUG, HARENA_GUARD) to options.
void read_environment(harena_options &options);

// After the checking feature's work changed (creation, a checker's heap).
inline void update_watched(harena_arena &arena) {
    arena.watched = arena.checks != nullptr && checking->watching(arena);
}

// The arena's memory, [address, address + bytes), becomes a checker's heap
// (device arenas while a tool is attached), or stops being one.
inline void nvtx_attach(harena_arena &arena, uint64_t address, uint64_t bytes) {
    if (arena.device_interface != nullptr && arena.checks != nullptr) {
        checking->region_attached(arena, address, bytes);
        update_watched(arena);
    }
}
inline void nvtx_detach(harena_arena &arena) {
    if (arena.checks != nullptr) {
        checking->region_detached(arena);
        update_watched(arena);
    }
}

// At least one alignment unit, and in guard mode room for the band after the
// bytes.
inline uint64_t allocation_size(const ArenaCore &arena, uint64_t bytes) {
    return round_up(guard_layout::with_band(bytes == 0 ? uint64_t(1) : bytes, arena.band_bytes), arena.alignment);
}

// Stack operations shared by harena_push/pop, scopes and planned pipelines.
// function names the caller in error messages.
// push_frame pushes on the arena's bound stream (core/streams.h).
int push_frame_on(harena_arena &arena, uint64_t reserve_bytes, bool pipeline, void *stream, harena_frame *frame,
                  const char *function);
inline int push_frame(harena_arena &arena, uint64_t reserve_bytes, bool pipeline, harena_frame *frame,
                      const char *function) {
    return push_frame_on(arena, reserve_bytes, pipeline, arena.bound_stream, frame, function);
}
// pipeline_exit: only harena_pipeline_exit pops a pipeline's frame, since
// the frame also holds the thread's activation for the run.
int pop_frame(harena_arena &arena, uint64_t frame_id, bool pipeline_exit, const char *function);
// Whether frame_id is pushed and frames pushed after it are still there.
bool frame_is_buried(const harena_arena &arena, uint64_t frame_id);

int bump(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address);
// bump for work on `stream`, which need not be the top frame's
// (harena_alloc_on_stream).
int bump_on(harena_arena &arena, uint64_t bytes, AllocationName name, void *stream, uint64_t *address);

// harena_free after its checks: the arena is live and contains address.
// HARENA_OK; HARENA_ERROR_INVALID_FREE, after reporting it and freeing
// nothing, when address and bytes are not a live allocation (checked against
// the top of the stack, and in debug and guard modes against the record);
// or in guard mode HARENA_ERROR_GUARD_DAMAGED after reporting a damaged band
// (the bytes are released all the same). function names the caller.
int release(harena_arena &arena, uint64_t address, uint64_t bytes, const char *function);
// release for a free on `stream`, which need not be the top frame's
// (harena_free_on_stream).
int release_on(harena_arena &arena, uint64_t address, uint64_t bytes, void *stream, const char *function);

// Backends: obtain and give back the arena's own memory. Acquiring again
// replaces the region: the old one is released only once the new one exists.
int host_acquire(harena_arena &arena, uint64_t capacity);
void host_release(harena_arena &arena);
int device_acquire(harena_arena &arena, uint64_t capacity);
void device_release(harena_arena &arena);

// Replacing the region (region.cpp). Growing arenas: the push at depth 0
// calls make_room with what the frame reserves; an allocation that does not
// fit asks the growth feature for more (core/growth.h).
inline void make_room(harena_arena &arena, uint64_t reserve_bytes, const char *function) {
    if (arena.grows) {
        growth->make_room(arena, reserve_bytes, function);
    }
}
// Whether the arena allocated its region itself (harena_create), so that it
// may replace it.
bool owns_memory(const harena_arena &arena);
// A new region of `capacity` bytes from the arena's backend, replacing the old.
int replace_region(harena_arena &arena, uint64_t capacity);

// Thread activation, also used by pipeline frames.
void activate(harena_scope *scope, harena_arena *arena);
int deactivate(harena_scope *scope, const char *function);

// The calling thread's chain of active scopes, innermost first (core/scope.cpp).
// __thread: constant-initialised, so reading it is one thread-relative load.
extern __thread harena_scope *innermost_scope;

// The arena of the calling thread's innermost scope with this device
// interface (harena_active_arena). Inline: the override asks on every call.
inline harena_arena *active_arena_of(const halide_device_interface_t *device_interface) {
    for (harena_scope *s = innermost_scope; s != nullptr; s = s->outer) {
        if (s->arena->device_interface == device_interface) {
            return s->arena;
        }
    }
    return nullptr;
}

// The arena whose memory address is (harena_find): one of the calling
// thread's active scopes' arenas first, without a lock, else any registered
// arena; null when none holds it.
inline harena_arena *arena_holding(const halide_device_interface_t *device_interface, uint64_t address) {
    for (harena_scope *s = innermost_scope; s != nullptr; s = s->outer) {
        if (s->arena->device_interface == device_interface && contains(*s->arena, address)) {
            return s->arena;
        }
    }
    return static_cast<harena_arena *>(find_registered_core(device_interface, address));
}

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
