/* harena runtime: one preallocated memory region (host memory or device memory
 * behind a Halide device interface) carved into a stack of frames. Allocation
 * bumps an atomic offset inside the top frame; popping a frame releases
 * everything allocated since the matching push.
 *
 * Conventions follow Halide's runtime: every function returning int returns 0
 * or a negative HARENA_ERROR_* code, never throws, and reports the reason
 * through halide_error (stderr when no Halide runtime is linked); the last
 * message reported on the calling thread is also kept, see harena_last_error.
 * Halide's default error handler prints and aborts, as it does for a failing
 * pipeline; install one with halide_set_error_handler to get the codes back.
 * The exceptions, all of them: harena_format_stats returns the length it
 * needed (>= 0) or a code; harena_graph_run returns the pipeline's own result
 * (harena/cuda.h); the functions that return something other than int
 * return NULL or 0 where there is no answer: the pipeline ABI's base queries
 * report why, harena_find, harena_active_arena, harena_last_error,
 * harena_graph_fallback_name and harena_pipeline_guard_bytes report nothing;
 * void functions cannot fail.
 *
 * Every entry point that takes an arena checks it against the registry of
 * live arenas before reading it: NULL gets HARENA_ERROR_INVALID_ARGUMENT, any
 * other pointer that is not a live arena HARENA_ERROR_NOT_AN_ARENA. What each
 * entry point answers to a wrong argument: docs/misuse.md.
 *
 * Thread safety: harena_alloc, harena_alloc_buffer, harena_free, harena_find,
 * harena_get_stats, harena_get_host_companion_stats, harena_scope_attach (and
 * the end of an attached scope) may run on several threads at once;
 * allocation and free take no lock, and bytes one thread frees are ordered
 * (release/acquire) before another thread's allocation of them. Pushing and
 * popping (directly, through harena_scope_begin / harena_scope_end, or
 * through the planned-pipeline entry points, which also push and pop the host
 * companion's frames), harena_reserve_host_companion, harena_reset_stats,
 * harena_shrink_to_fit and harena_destroy of one arena must not run
 * concurrently with each other or with allocations in that arena. Different
 * arenas are independent. The calls that name a stream (below) follow the
 * same rules as the ones they extend.
 */
#ifndef HARENA_RUNTIME_H
#define HARENA_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "HalideRuntime.h"
#include "harena/pipeline_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where Halide has a code for the same failure it is reused, so that a planned
 * pipeline can return the code unchanged. */
enum harena_error_code {
    HARENA_OK = 0,
    /* The arena's own memory could not be allocated (host). */
    HARENA_ERROR_OUT_OF_MEMORY = halide_error_code_out_of_memory,
    /* The arena's own memory could not be allocated (device interface). */
    HARENA_ERROR_DEVICE_MALLOC_FAILED = halide_error_code_device_malloc_failed,
    /* A pipeline or buffer of one device interface met an arena of another. */
    HARENA_ERROR_INCOMPATIBLE_DEVICE_INTERFACE = halide_error_code_incompatible_device_interface,
    /* A null pointer, a zero size or an alignment that is not a power of two. */
    HARENA_ERROR_INVALID_ARGUMENT = -1001,
    /* The pointer is not a live arena: destroyed, never created, or another object. */
    HARENA_ERROR_NOT_AN_ARENA = -1002,
    /* The request does not fit in what is left of the arena. */
    HARENA_ERROR_OVERFLOW = -1003,
    /* An allocation while no frame is pushed. */
    HARENA_ERROR_NO_FRAME = -1004,
    /* A pop of a frame that is not the top frame. */
    HARENA_ERROR_FRAME_NOT_TOP = -1005,
    /* A pop while no frame is pushed. */
    HARENA_ERROR_FRAME_STACK_EMPTY = -1006,
    /* A push beyond harena_options.max_frames. */
    HARENA_ERROR_FRAME_STACK_FULL = -1007,
    /* Debug mode: allocations of a frame were still alive when it popped (it popped anyway). */
    HARENA_ERROR_ALIVE_AT_POP = -1008,
    /* A scope ended that is not the innermost scope of the calling thread. */
    HARENA_ERROR_SCOPE_NOT_INNERMOST = -1009,
    /* A free of an address that does not lie in the arena. */
    HARENA_ERROR_NOT_IN_ARENA = -1010,
    /* A destroy while frames are pushed or scopes are attached. */
    HARENA_ERROR_ARENA_IN_USE = -1011,
    /* Not a failure: a planned pipeline called with a measuring arena stopped
     * before running and left its size (harena_measured_bytes). */
    HARENA_MEASURED = -1012,
    /* Not a failure: a planned pipeline was called while its call was being
     * captured as a CUDA graph (harena/cuda.h) and does work a graph would not
     * repeat; it returned before running, and the call runs normally. */
    HARENA_NOT_CAPTURABLE = -1013,
    /* Guard mode: bytes past the end of a slice (or before a frame's first
     * slice) were written; the message names the buffer, the pipeline, the
     * offset and how many bytes past the end. */
    HARENA_ERROR_GUARD_DAMAGED = -1014,
    /* A free of an address in the arena that is not the start of a live
     * allocation, or with a size other than the allocation's (a double free,
     * an interior pointer, a wrong size); nothing is freed. */
    HARENA_ERROR_INVALID_FREE = -1015,
    /* A planned pipeline aligns its slices more strictly than the arena it
     * was called with aligns its frames. */
    HARENA_ERROR_INCOMPATIBLE_ALIGNMENT = -1016
};

enum harena_overflow_policy {
    /* An allocation that does not fit fails with a message. */
    HARENA_OVERFLOW_ERROR = 0,
    /* An allocation that does not fit returns HARENA_ERROR_OVERFLOW without an
     * error report; the caller (the halide_device_malloc override) allocates it
     * elsewhere. Counted in harena_stats.fallbacks and noticed once per arena. */
    HARENA_OVERFLOW_FALLBACK = 1
};

typedef struct harena_options {
    /* Every allocation and frame base is a multiple of this; a power of two
     * of at most the capacity (the capacity is rounded up to a multiple).
     * Default HARENA_DEFAULT_ALIGNMENT (harena/pipeline_abi.h). A planned
     * pipeline needs a multiple of the alignment it was planned at. */
    uint64_t alignment;
    /* enum harena_overflow_policy. Default HARENA_OVERFLOW_ERROR. */
    int32_t overflow_policy;
    /* Nonzero: record every allocation and report the ones still alive when
     * their frame pops, with name and size. Also on when the environment
     * variable HARENA_DEBUG is set to 1 at creation. Default 0. */
    int32_t debug;
    /* Deepest frame stack the arena accepts, 1 to 65536. Default 64. */
    uint32_t max_frames;
    /* Nonzero: an arena that allocated its own memory grows instead of
     * failing. When a push at depth 0 (a scope, a planned pipeline's entry,
     * harena_push) needs more than the capacity, or an allocation in an
     * earlier frame did not fit (one that no arena could hold, 1 TiB or
     * more, does not count), the region is replaced by one twice as large,
     * or as large as needed if that is more, before the frame opens. Nothing
     * moves while a frame is pushed: an allocation that does not fit then
     * follows overflow_policy (HARENA_OVERFLOW_FALLBACK keeps such a call
     * running) and the next push at depth 0 makes room for it. Addresses
     * handed out before a growth are not valid after it. Default 0. */
    int32_t grow;
    /* Nonzero: guard mode, for finding out-of-bounds writes. Every slice
     * (bumped, or placed by a planned pipeline) is followed by a band of at
     * least guard_bytes, and each frame a scope or harena_push opens starts
     * with one. A band is filled with 0xA5 when its slice is handed out and
     * checked when the slice is freed, when its bytes are about to be reused
     * and when its frame pops (device memory: through the device interface's
     * copies on Halide's stream, then a device sync). A damaged band is
     * reported as HARENA_ERROR_GUARD_DAMAGED, naming the buffer, the pipeline
     * where known, the offset and how many bytes past the end were written.
     * Planned pipelines lay their slices out with the bands included, so they
     * run unchanged. Also on when the environment variable HARENA_GUARD is 1
     * at creation. Costs nothing when off. Default 0. */
    int32_t guard;
    /* Bytes of each band, rounded up to the alignment. Default 256. */
    uint32_t guard_bytes;
} harena_options;

/* Fills every field of *options with its default. */
void harena_options_init(harena_options *options);

typedef struct harena_arena harena_arena;

/* Allocates an arena of `capacity` bytes (less than 1 TiB) once. device_interface NULL: host
 * memory. Otherwise device memory obtained through
 * device_interface->device_malloc (e.g. halide_cuda_device_interface()) on
 * behalf of user_context, released through device_interface->device_free by
 * harena_destroy. The interface's device handles must be addresses (CUDA):
 * the arena hands out base + offset. options may be NULL for the defaults. */
int harena_create(void *user_context, const struct halide_device_interface_t *device_interface,
                  uint64_t capacity, const harena_options *options, harena_arena **arena);

/* An arena over memory the caller owns (PyTorch, CuPy, RMM,
 * cudaMallocAsync, ...): [address, address + size), which must not wrap past
 * the end of the address space. The runtime never
 * allocates or frees it. The base is rounded up to the alignment, so the
 * capacity may be slightly less than size. */
int harena_create_from_memory(const struct halide_device_interface_t *device_interface, uint64_t address,
                              uint64_t size, const harena_options *options, harena_arena **arena);

/* Releases the arena and its memory if the runtime allocated it. Refused with
 * HARENA_ERROR_ARENA_IN_USE while frames are pushed or scopes attached. */
int harena_destroy(harena_arena *arena);

/* Replaces the region by one just large enough for the largest use since
 * creation or the last harena_reset_stats (the high-water mark), giving the
 * rest back. Only for arenas that allocated their own memory, and only while
 * no frame is pushed and no scope attached (HARENA_ERROR_ARENA_IN_USE
 * otherwise). Addresses handed out before are not valid after. */
int harena_shrink_to_fit(harena_arena *arena);

typedef struct harena_info {
    const struct halide_device_interface_t *device_interface; /* NULL for host memory */
    uint64_t base;                                            /* address of the first byte */
    uint64_t capacity;                                        /* bytes */
    uint64_t alignment;
    int32_t overflow_policy;
    int32_t debug;
    int32_t owns_memory; /* 0 for harena_create_from_memory */
} harena_info;

/* Copies what the arena was created with into *info. */
int harena_get_info(const harena_arena *arena, harena_info *info);

/* A pushed frame: id identifies it for harena_pop; base is the address where
 * its `reserve_bytes` start (reserved for the caller's own placement; further
 * allocations bump after them). */
typedef struct harena_frame {
    uint64_t id;
    uint64_t base;
} harena_frame;

/* Pushes a frame with `reserve_bytes` reserved at its base and returns it in
 * *frame; fails with HARENA_ERROR_OVERFLOW where the reserve does not fit
 * above the top frame, HARENA_ERROR_FRAME_STACK_FULL where the arena
 * already holds harena_options.max_frames frames. */
int harena_push(harena_arena *arena, uint64_t reserve_bytes, harena_frame *frame);

/* Pops `frame`, which must be the top frame, releasing everything allocated
 * since its push. A scope's frame pops only through harena_scope_end, a
 * planned pipeline's only when it returns (HARENA_ERROR_FRAME_NOT_TOP). */
int harena_pop(harena_arena *arena, harena_frame frame);

/* Bumps `bytes` (rounded up to the alignment; 0 counts as 1) in the top frame
 * and writes its address. `name` (may be NULL) appears in error messages and
 * in debug reports. */
int harena_alloc(harena_arena *arena, uint64_t bytes, const char *name, uint64_t *address);

/* As harena_alloc for buf->size_in_bytes(), naming the buffer by its type and
 * shape (a halide_buffer_t carries no name). */
int harena_alloc_buffer(harena_arena *arena, const struct halide_buffer_t *buf, uint64_t *address);

/* Gives back an allocation of `bytes` at `address`: if it is the most recent
 * allocation of the top frame its bytes are reused at once, otherwise they
 * come back when the frame pops. HARENA_ERROR_NOT_IN_ARENA for an address
 * outside the arena; HARENA_ERROR_INVALID_FREE, freeing nothing, for one that
 * is not a live allocation of that size where the top of the stack shows it
 * (a double free of the newest allocation, an interior pointer or wrong size
 * that reaches the newest, an address above the top or off the alignment),
 * and in debug and guard modes for every mismatch (docs/misuse.md). */
int harena_free(harena_arena *arena, uint64_t address, uint64_t bytes);

/* Stream order (device arenas; docs/usage/streams.md). Every frame runs on a
 * stream: the one harena_push_on_stream names, or, for harena_push,
 * harena_scope_begin and planned pipelines, the arena's bound stream
 * (harena/cuda.h; NULL, Halide's default stream, when unbound). harena_alloc,
 * harena_alloc_buffer and harena_free act on the top frame's stream; the
 * calls below name theirs (a CUstream; NULL is the legacy default stream).
 *
 * The arena remembers which stream last used each free byte: a free releases
 * its bytes on its stream; a pop releases its frame's bytes on the frame's
 * stream and on every other stream that allocated or freed in the frame.
 * Bytes taken again for work on the stream that last used them cost nothing.
 * Bytes taken for work on another stream (an allocation, or a push's
 * reservation) first make that stream wait (cuStreamWaitEvent) on an event
 * recorded then on the stream that last used them (cuEventRecord): one record
 * and one wait per crossing, queued before the call returns, counted in
 * harena_stats. Events come from a pool per CUDA context.
 *
 * What the caller still does:
 * - queue a slice's last use before freeing it, or popping its frame, on the
 *   stream that use runs on (or on a stream that waits for it): a free or a
 *   pop on a stream says that every use of the bytes is ordered before the
 *   stream's next work;
 * - keep every stream that used the arena alive until the arena is destroyed,
 *   or retire it first (harena_retire_stream): the event is recorded when the
 *   bytes cross, on the stream that last used them. The arena retires a
 *   stream it made itself (harena_create_cuda_stream) before destroying it;
 * - use streams of the context the arena's memory belongs to;
 * - order the host itself: a stream wait orders streams, not host reads.
 * A host arena has no streams: the calls below accept only NULL for it. */

/* harena_push for work on `stream`. */
int harena_push_on_stream(harena_arena *arena, uint64_t reserve_bytes, void *stream, harena_frame *frame);

/* harena_alloc for work on `stream` in the top frame. Thread safety as
 * harena_alloc's; a stream other than the top frame's takes a lock. */
int harena_alloc_on_stream(harena_arena *arena, uint64_t bytes, const char *name, void *stream, uint64_t *address);

/* harena_free on `stream`: the bytes were last used on it. Thread safety as
 * harena_free's; a stream other than the top frame's takes a lock. */
int harena_free_on_stream(harena_arena *arena, uint64_t address, uint64_t bytes, void *stream);

/* Before `stream` is destroyed: records an event on it now for the free
 * bytes it last used, which later crossings wait on instead.
 * HARENA_ERROR_ARENA_IN_USE while a pushed frame runs on it or was used by
 * it. As a push for thread safety. */
int harena_retire_stream(harena_arena *arena, void *stream);

/* The live arena with this device interface whose memory contains address,
 * or NULL. Checks the calling thread's scopes first, then every arena. */
harena_arena *harena_find(const struct halide_device_interface_t *device_interface, uint64_t address);

typedef struct harena_stats {
    uint64_t capacity;               /* bytes */
    uint64_t bytes_in_use;           /* offset of the top of the stack: allocations and reservations below it */
    uint64_t high_water;             /* largest bytes_in_use since creation or the last reset */
    uint64_t allocations;            /* successful harena_alloc / harena_alloc_buffer calls */
    uint64_t reclaimed;              /* frees whose bytes came back at once (LIFO) */
    uint64_t frames_pushed;          /* pushes, including scopes and planned pipelines */
    uint64_t overflows;              /* requests that did not fit, under either policy */
    uint64_t fallbacks;              /* overflows handed to the caller under HARENA_OVERFLOW_FALLBACK */
    uint32_t frame_depth;            /* frames pushed now */
    uint32_t max_frame_depth;        /* deepest stack since creation or the last reset */
    uint64_t evictions;              /* buffers still bound to a slice when its frame popped, moved to
                                        the device interface's own memory (see harena/override.h) */
    uint64_t evicted_bytes;          /* bytes those moves copied */
    uint64_t grows;                  /* times the region was replaced by a larger one (harena_options.grow) */
    uint64_t guard_checks;           /* guard bands checked (harena_options.guard) */
    uint64_t guard_damaged;          /* of those, bands found written */
    uint64_t stream_crossings;       /* bytes last used on one stream taken for work on another (see below) */
    uint64_t stream_events_recorded; /* events recorded for crossings and retired streams */
    uint64_t stream_waits;           /* stream waits queued for crossings */
    uint64_t slot_tasks;             /* tasks of planned parallel loops that ran in a slot of the arena */
    uint64_t slot_fallbacks;         /* such tasks that found every slot taken: their buffers came from
                                        halide_malloc (harena.parallel_slots) */
    uint64_t slot_high_water;        /* most slots one run of a loop used (each thread keeps to one
                                        slot while no other takes it) */
} harena_stats;

/* Exact while no other thread allocates or frees in the arena. Read while
 * they do, each figure is read on its own, and allocations or reclaimed may
 * read 4096 low for the instant an allocation or free that completes a
 * multiple of 4096 takes to return. */
int harena_get_stats(const harena_arena *arena, harena_stats *stats);

/* A device arena's host companion: host memory for the host-only buffers of
 * the GPU pipelines planned into the arena (a CPU stage between GPU stages,
 * listed in the plan report as planned in the host companion), with a stack
 * of frames of its own, one per planned call. Created by the first call that
 * needs host bytes, at that call's worst case (its bytes where it has none),
 * or beforehand by harena_reserve_host_companion; freed with the arena. A
 * call that needs more than it holds while no other planned call is inside
 * it grows it, whatever the arena's options: nothing outside a call holds
 * its addresses. Plain host memory, aligned as the arena. It is pushed and
 * popped only by the planned-pipeline entry points, so it has its arena's
 * thread-safety contract (above). harena_shrink_to_fit leaves it as it is.
 *
 * harena_reserve_host_companion creates it with at least `bytes`, or replaces
 * an idle one's region by one that large (addresses handed out before are not
 * valid after); HARENA_ERROR_INVALID_ARGUMENT for a host arena, which holds
 * its pipelines' host buffers itself. Not concurrently with planned calls in
 * the arena. */
int harena_reserve_host_companion(harena_arena *arena, uint64_t bytes);

/* The host companion's statistics (all zero while it does not exist):
 * capacity, bytes_in_use, high_water (what to reserve), frames, overflows
 * and grows. Read like harena_get_stats. */
int harena_get_host_companion_stats(const harena_arena *arena, harena_stats *stats);

/* Zeroes the counters (the host companion's too); high_water restarts from
 * bytes_in_use. */
int harena_reset_stats(harena_arena *arena);

/* Writes a human-readable summary (as snprintf: truncated to size, always
 * terminated when size > 0) and returns the length it needed, or a negative
 * error code. buffer may be NULL only with size 0
 * (HARENA_ERROR_INVALID_ARGUMENT otherwise). */
int harena_format_stats(const harena_arena *arena, char *buffer, size_t size);

/* A scope makes an arena the target of the halide_device_malloc override
 * (and of the host heap hook) on the calling thread until it ends. The caller
 * owns the storage; the fields are private. Scopes nest per thread; the
 * innermost scope whose arena has the requested device interface wins. */
typedef struct harena_scope {
    harena_arena *arena;
    harena_frame frame; /* pushed by harena_scope_begin; id 0 when attached */
    struct harena_scope *outer;
} harena_scope;

/* Pushes a frame on `arena` and activates it on the calling thread. */
int harena_scope_begin(harena_scope *scope, harena_arena *arena);

/* Activates `arena` on the calling thread without pushing a frame: threads
 * started inside a scope attach to allocate into the same frame. */
int harena_scope_attach(harena_scope *scope, harena_arena *arena);

/* Deactivates the scope (it must be the calling thread's innermost) and pops
 * its frame if it pushed one. While frames pushed inside the scope are still
 * pushed it returns HARENA_ERROR_FRAME_NOT_TOP and changes nothing: pop them
 * and end the scope again. */
int harena_scope_end(harena_scope *scope);

/* The arena of the calling thread's innermost scope with this device
 * interface (NULL: host), or NULL. */
harena_arena *harena_active_arena(const struct halide_device_interface_t *device_interface);

/* Number of CUDA devices the driver reports (0 when libcuda is missing or
 * cuInit fails). Ask before running a CUDA pipeline: Halide's default error
 * handler aborts when its CUDA runtime finds no device. */
int harena_cuda_device_count(void);

/* The last message reported on the calling thread; "" if none. */
const char *harena_last_error(void);

/* Forgets the calling thread's last message, so that a later
 * harena_last_error tells whether a call reported anything. */
void harena_clear_last_error(void);

/* A measuring arena holds no memory: a planned pipeline called with it checks
 * its arguments, records the bytes this call would need and returns
 * HARENA_MEASURED before any stage runs. */
int harena_create_measuring(harena_arena **arena);

/* What the last planned pipeline called with a measuring arena asked for:
 * the bytes for its actual arguments and its declared worst case. */
int harena_measured_bytes(const harena_arena *arena, uint64_t *bytes, uint64_t *worst_case_bytes);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HARENA_RUNTIME_H
