/* harena and CUDA: the stream (and context) an arena's planned pipelines run
 * on, and planned calls captured once as CUDA graphs and replayed.
 *
 * Driver functions are looked up in libcuda at run time; nothing here needs a
 * CUDA toolkit to build, and every function reports an error (rather than
 * crashing) where no driver is loaded. Conventions are harena/runtime.h's.
 */
#ifndef HARENA_CUDA_H
#define HARENA_CUDA_H

#include <stddef.h>
#include <stdint.h>

#include "harena/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What Halide's CUDA runtime asks its hooks for, answered by the arena when a
 * planned pipeline calls them with the arena as its user_context. */
typedef struct harena_cuda_binding {
    /* CUcontext to run in; NULL: ask the previously installed hook (Halide's
     * default context, or the program's own hook). */
    void *context;
    /* CUstream to launch on; NULL: ask the previously installed hook
     * (Halide's default is the legacy default stream). */
    void *stream;
    /* What the previously installed hooks receive instead of the arena,
     * for the questions the arena does not answer: a program whose hooks
     * read their own struct from user_context (as Halide's PyTorch helpers
     * do) keeps working when the arena takes the user_context argument. */
    void *user_context;
} harena_cuda_binding;

/* Installs the runtime's handlers with halide_set_cuda_acquire_context,
 * halide_set_cuda_release_context and halide_set_cuda_get_stream (Halide 14's
 * own hook setters), keeping the handlers installed before as the fallback.
 * Idempotent. Fails where the program has no Halide CUDA runtime. */
int harena_install_cuda_hooks(void);

/* Sets (or, with NULL, clears) the arena's binding. A stream the runtime
 * created (harena_create_cuda_stream) is destroyed first. Not while frames are
 * pushed. The region stays where it was allocated: bind an arena only to a
 * context of the device its memory is on (harena_create_cuda does both). */
int harena_set_cuda_binding(harena_arena *arena, const harena_cuda_binding *binding);
/* Copies the arena's binding into *binding (all NULL where it has none). */
int harena_get_cuda_binding(const harena_arena *arena, harena_cuda_binding *binding);

/* An arena for the device of binding->context, one per GPU in a program that
 * uses several (the context from cuDevicePrimaryCtxRetain, or one the program
 * made; it must outlive the arena). The region is allocated, grown and freed
 * through device_interface (halide_cuda_device_interface()) in that context,
 * and the arena is bound to it: every call made with the arena as its
 * user_context (planned pipelines, halide_device_malloc, copies, syncs,
 * harena_graph_run) runs on that device. binding->stream NULL: the runtime
 * makes a non-blocking stream of its own in the context, as
 * harena_create_cuda_stream does. binding->user_context is what the hooks
 * installed before the runtime's receive, and what errors are reported
 * with. Installs the hooks. Buffers whose device memory a call with the
 * arena allocated belong to that device: copy and free them with the arena
 * as user_context too. */
int harena_create_cuda(const struct halide_device_interface_t *device_interface, const harena_cuda_binding *binding,
                       uint64_t capacity, const harena_options *options, harena_arena **arena);

/* Gives the arena a stream of its own: non-blocking (it does not wait for the
 * legacy default stream, which graphs cannot be captured from), in Halide's
 * context for this device (or the binding's context, if set), destroyed with
 * the arena. Installs the hooks. Work on it is not ordered with Halide's
 * default stream: synchronize (harena_cuda_synchronize) before reading its
 * results through another stream, e.g. a copy_to_host without the arena. */
int harena_create_cuda_stream(harena_arena *arena);

/* Waits for the work queued on the arena's stream. */
int harena_cuda_synchronize(harena_arena *arena);

/* Graphs: a cache of planned calls captured on the arena's stream. */
typedef struct harena_graph_cache harena_graph_cache;

/* Why a call ran as an ordinary call instead of being captured or replayed. */
enum harena_graph_fallback {
    /* The arena has no stream of its own (the legacy default stream cannot be captured). */
    HARENA_GRAPH_NO_STREAM = 0,
    /* The CUDA driver has no graph functions (or is not loaded). */
    HARENA_GRAPH_NO_DRIVER = 1,
    /* A buffer argument has no device memory, or its host copy is newer: the
     * copy is the caller's to make before the call, with the arena as its
     * user_context so that it runs on the arena's stream, ahead of the replay. */
    HARENA_GRAPH_ARGUMENT_ON_HOST = 2,
    /* The call ran no pipeline built with the arena feature in this arena
     * (neither a planned one nor one declaring that it plans nothing), and
     * the program has no override (harena/override.h) to place the
     * allocations of one built without it. */
    HARENA_GRAPH_NOT_PLANNED = 3,
    /* The pipeline does work a graph would not repeat: host-side stages
     * that read device results, parallel CPU loops, buffers left to the
     * runtime allocator (<NAME>_ARENA_NOT_CAPTURABLE in its plan header says
     * which). */
    HARENA_GRAPH_NOT_CAPTURABLE = 4,
    /* Something was allocated in the arena while the call was captured. */
    HARENA_GRAPH_ALLOCATED = 5,
    /* The driver ended the capture with an error (a host copy or a
     * synchronisation inside the call, for instance), or the graph copies
     * from host memory it does not own, or a host stage's buffer
     * (harena_key_host_malloc) was not uploaded by a copy in the graph. */
    HARENA_GRAPH_CAPTURE_FAILED = 6,
    /* The pipeline returned an error while it was captured. */
    HARENA_GRAPH_PIPELINE_FAILED = 7,
    /* A pipeline built without the arena feature, through the override: its
     * first call with these arguments left a device allocation alive at its
     * return (an output it allocates, a buffer it keeps). */
    HARENA_GRAPH_OUTLIVES_CALL = 8,
    /* The same, and the captured call allocated or freed otherwise than the
     * first call with these arguments (the key misses something its sizes
     * depend on); a notice names the first difference. */
    HARENA_GRAPH_ALLOCATIONS_CHANGED = 9,
    HARENA_GRAPH_FALLBACK_REASONS = 10
};

/* What harena_graph_run did with a call. */
enum harena_graph_outcome {
    HARENA_GRAPH_RAN = 0,      /* an ordinary call: first sight of these arguments */
    HARENA_GRAPH_CAPTURED = 1, /* captured, instantiated and launched */
    HARENA_GRAPH_REPLAYED = 2, /* launched the graph captured for these arguments */
    HARENA_GRAPH_FELL_BACK = 3 /* an ordinary call, for a reason counted in the statistics */
};

typedef struct harena_graph_stats {
    uint64_t calls;                                    /* harena_graph_run calls */
    uint64_t ordinary;                                 /* calls that ran as ordinary calls, first sights and fallbacks */
    uint64_t captures;                                 /* graphs captured and instantiated */
    uint64_t replays;                                  /* graph launches of a cached graph */
    uint64_t misses;                                   /* calls whose arguments had no graph yet */
    uint64_t evictions;                                /* graphs dropped to keep the cache within its capacity */
    uint64_t invalidated;                              /* graphs dropped because the arena's region changed (grown, shrunk) */
    uint64_t fallbacks[HARENA_GRAPH_FALLBACK_REASONS]; /* by enum harena_graph_fallback */
    uint64_t unordered_edges;                          /* captured edges removed between kernels that share no written memory, which run side by side */
} harena_graph_stats;

/* A cache of at most `capacity` instantiated graphs for calls in `arena`,
 * least recently used dropped first. The arena must outlive the cache. A
 * cache is used by one thread at a time, as its arena's frames are: its
 * calls (run, wait, destroy) must not run concurrently with each other. */
int harena_graph_cache_create(harena_arena *arena, uint32_t capacity, harena_graph_cache **cache);
/* Destroys the cache, its graphs and the blocks they own, after waiting for
 * graphs still running. */
int harena_graph_cache_destroy(harena_graph_cache *cache);

/* The call: runs the pipeline with user_context (the arena) and closure. */
typedef int (*harena_graph_call)(void *user_context, void *closure);

/* Runs call(arena, closure) through the cache. The key of a call is built
 * from what the graph bakes in: `key` (key_bytes bytes the caller adds: the
 * function and every scalar argument), every buffer in `buffers` (device
 * address, device interface, type and shape), the arena's identity, region
 * and top, and its stream. The first call with a key runs as an ordinary
 * call; the second is captured on the arena's stream, instantiated and
 * launched; later ones replay the graph. A graph replays whatever the input
 * buffers' device memory holds at launch. *outcome (may be NULL) receives
 * enum harena_graph_outcome. Returns the pipeline's result or an error. */
int harena_graph_run(harena_graph_cache *cache, const void *key, size_t key_bytes, halide_buffer_t *const *buffers,
                     int buffer_count, harena_graph_call call, void *closure, int *outcome);

/* Waits for the work of the cache's last harena_graph_run, and for
 * everything queued on the arena's stream before it. From the first wait
 * on, every graph the cache captures ends with a one-thread kernel that
 * stores a count in pinned host memory: after a replay (or a capture) of
 * such a graph this reads that count until its graph's arrives, without a
 * driver call, which is where threads replaying at once would queue. After
 * an ordinary call, a graph captured before the first wait, or where the
 * graph has not finished within 200 us, it waits on the arena's stream
 * (cuStreamSynchronize). A cache never waited on captures its graphs
 * without the kernel (about 1.6 us of GPU time a replay). Work queued on the
 * stream after the call is not waited for: harena_cuda_synchronize waits
 * for all of it. */
int harena_graph_wait(harena_graph_cache *cache);

/* Copies the cache's counts (calls run, captured, replayed, each fallback by
 * reason) into *stats. */
int harena_graph_get_stats(const harena_graph_cache *cache, harena_graph_stats *stats);

/* A short name for a fallback reason ("argument on host", ...). */
const char *harena_graph_fallback_name(int reason);

/* The cause of the cache's latest fallback for `reason`, for a person: the
 * driver call and its error, the buffer argument or pipeline involved
 * ("cuStreamEndCapture returned CUDA_ERROR_STREAM_CAPTURE_INVALIDATED (901)
 * after the call, ..."); empty while none fell back for it. Copies at most
 * bytes - 1 characters and a NUL to text (nothing when bytes is 0) and
 * returns the cause's full length, or a code. The first fallback of each
 * reason in a cache is also reported once through halide_print, with its
 * cause. */
int harena_graph_fallback_cause(const harena_graph_cache *cache, int reason, char *text, size_t bytes);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HARENA_CUDA_H
