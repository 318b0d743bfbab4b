/* The halide_device_malloc override (CMake target harena_device_override).
 *
 * Linking it into a program replaces Halide's weak halide_device_malloc,
 * halide_device_free, halide_device_and_host_malloc and
 * halide_device_and_host_free for every AOT pipeline in the program, without
 * recompiling them. While the calling thread has an active scope (harena_scope_begin,
 * harena::Scope, or a planned pipeline's frame) on an arena of the same device
 * interface, device memory is bumped from that arena and bound to the buffer
 * with the interface's wrap_native; freeing detaches it, gives the bytes back
 * if it was the most recent allocation, and never reaches the device
 * driver or Halide's allocation cache. Everything else takes Halide 14's
 * default path unchanged. Halide's *_as_destructor variants and
 * halide_copy_to_device / halide_buffer_copy call these public symbols, so
 * they follow too.
 *
 * Buffers that outlive their scope are safe: a pipeline's input uploaded by
 * halide_copy_to_device inside the scope, or an output whose device memory
 * the pipeline allocated there, is still bound to a slice of the frame when it
 * pops. The pop moves every such buffer to memory from the device
 * interface's own allocator (Halide's cache or cuMemAlloc, as without an
 * arena), copying its contents on the interface's stream and leaving its
 * dirty bits as they were, and counts it in harena_stats.evictions. Later
 * calls on the same buffers find their device memory where Halide's default
 * would have put it, so this happens once per buffer, not per call; freeing
 * them later, in a scope or not, takes Halide's default path. The runtime
 * keeps a record of which halide_buffer_t holds which slice to do this
 * (4096 per arena; beyond that, allocations in the frame go to the default
 * allocator, counted as fallbacks), so a halide_buffer_t bound in a scope
 * must stay alive, or be freed, until its frame pops.
 *
 * The override calls into the program's Halide runtime (halide_malloc,
 * halide_error, ...): link it into programs that contain an AOT pipeline.
 */
#ifndef HARENA_OVERRIDE_H
#define HARENA_OVERRIDE_H

#include <stdint.h>

#include "HalideRuntime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the override with Halide's signatures; HalideRuntime.h declares
 * halide_device_malloc and halide_device_free but not this pair. */
int halide_device_and_host_malloc(void *user_context, struct halide_buffer_t *buf,
                                  const struct halide_device_interface_t *device_interface);
int halide_device_and_host_free(void *user_context, struct halide_buffer_t *buf);

/* Process-wide counts of where the override sent each call. Exact, also when
 * threads call at once: each thread counts in its own block, without a locked
 * instruction, and reading sums the blocks (under a lock, so read them around
 * a loop rather than inside it). */
typedef struct harena_override_counters {
    uint64_t device_arena_allocations;   /* device allocations served by an arena */
    uint64_t device_arena_frees;         /* frees of arena memory (detached only) */
    uint64_t device_default_allocations; /* allocations passed to the interface's own allocator */
    uint64_t device_default_frees;       /* frees passed to the interface's own allocator */
    uint64_t heap_arena_allocations;     /* halide_malloc calls served by a host arena (host heap hook) */
    uint64_t heap_default_allocations;   /* halide_malloc calls passed to the previous allocator */
} harena_override_counters;

/* The process-wide counts since the last reset, and their reset to zero:
 * which allocations the override served from arenas, and which it passed on. */
void harena_override_get_counters(harena_override_counters *counters);
void harena_override_reset_counters(void);

/* Routes halide_malloc / halide_free of host pipelines into the calling
 * thread's active host arena (one created with a NULL device interface),
 * through halide_set_custom_malloc / halide_set_custom_free; outside a scope
 * the allocators that were installed before are called. Each block costs one
 * alignment unit of header, so the arena's alignment must be at least 128
 * (halide_malloc's). Idempotent. */
int harena_install_host_heap_hook(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HARENA_OVERRIDE_H
