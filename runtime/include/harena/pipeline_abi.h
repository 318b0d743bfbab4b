/* The contract between the code the arena pass generates and the runtime: the
 * entry points a planned pipeline calls, the names the pass calls them by, the
 * traits it declares at entry, the default alignment and the guard-band
 * layout. The runtime implements it (runtime/src) and the pass includes it
 * (planner/pass/runtime_calls.h builds each call from the declarations here),
 * so that both sides read one definition. A planned pipeline's user_context
 * is the harena_arena * it runs in; every function returning int returns 0 or
 * a negative error code (enum harena_error_code, harena/runtime.h).
 *
 * Frame layout. harena_pipeline_enter pushes one frame of the bytes the call
 * computed. Every slice lies at the frame's base plus an offset that is a
 * multiple of the alignment the pipeline was planned at; the entry refuses an
 * arena whose alignment is not a multiple of it, since frame bases are
 * aligned to the arena's alignment only.
 *
 * Guard-band layout (harena_options.guard, for pipelines that declare
 * HARENA_PIPELINE_GUARDS): harena/guard_layout.h, which the planner pass and
 * the runtime both use. G = harena_pipeline_guard_bytes() is a multiple of
 * the arena's alignment (so, once the entry has accepted the pipeline, of
 * the pipeline's), 0 when guard mode is off. The pipeline uses G as it is;
 * the runtime records the band at the frame's start at entry and each
 * slice's band in harena_pipeline_slice.
 */
#ifndef HARENA_PIPELINE_ABI_H
#define HARENA_PIPELINE_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct halide_buffer_t;
struct halide_device_interface_t;

/* The alignment the pass plans at and arenas are created with unless told
 * otherwise: CUDA's allocation alignment, and the width PTX assumes for vector
 * loads from noalias kernel arguments. */
#define HARENA_DEFAULT_ALIGNMENT 256

/* What a planned pipeline declares about itself at entry (the pass computes it). */
enum harena_pipeline_traits {
    /* All its work is GPU kernels on planned buffers (or on none: it plans
     * no buffer and allocates nothing in a call): no host-side stage that
     * reads more than the scalar arguments, no parallel CPU loop, no buffer
     * left to the runtime allocator. One call captured as a CUDA graph
     * replays it. */
    HARENA_PIPELINE_CAPTURABLE = 1,
    /* It lays its slices out with guard bands when the arena is in guard mode
     * (the guard-band layout above). */
    HARENA_PIPELINE_GUARDS = 2
};

/* The names the generated code calls the entry points by (the pass's Call
 * nodes carry these strings; tests/runtime/pipeline/abi_test.cpp checks each
 * against its declaration below). */
#define HARENA_ABI_PIPELINE_ENTER "harena_pipeline_enter"
#define HARENA_ABI_PIPELINE_DECLARE "harena_pipeline_declare"
#define HARENA_ABI_PIPELINE_BASE "harena_pipeline_base"
#define HARENA_ABI_PIPELINE_EXIT_AS_DESTRUCTOR "harena_pipeline_exit_as_destructor"
#define HARENA_ABI_PLANNED_HOST_FREE "harena_planned_host_free"
#define HARENA_ABI_PLANNED_HOST_FREE_AS_DESTRUCTOR "harena_planned_host_free_as_destructor"
#define HARENA_ABI_KEY_HOST_MALLOC "harena_key_host_malloc"
#define HARENA_ABI_ARGUMENT_COPY_TO_DEVICE "harena_argument_copy_to_device"
#define HARENA_ABI_ARGUMENT_DEVICE_MALLOC "harena_argument_device_malloc"
#define HARENA_ABI_ARGUMENT_DEVICE_AND_HOST_MALLOC "harena_argument_device_and_host_malloc"
#define HARENA_ABI_PIPELINE_GUARD_BYTES "harena_pipeline_guard_bytes"
#define HARENA_ABI_NVTX_ATTACHED "harena_nvtx_attached"
#define HARENA_ABI_PIPELINE_SLICE "harena_pipeline_slice"
#define HARENA_ABI_PIPELINE_SLICES_END "harena_pipeline_slices_end"
#define HARENA_ABI_PIPELINE_HOST_ENTER "harena_pipeline_host_enter"
#define HARENA_ABI_PIPELINE_HOST_BASE "harena_pipeline_host_base"
#define HARENA_ABI_PIPELINE_HOST_EXIT_AS_DESTRUCTOR "harena_pipeline_host_exit_as_destructor"
#define HARENA_ABI_PIPELINE_SLOTS "harena_pipeline_slots"
#define HARENA_ABI_SLOT_POOL_INIT "harena_slot_pool_init"
#define HARENA_ABI_SLOT_TAKE "harena_slot_take"
#define HARENA_ABI_SLOT_GIVE "harena_slot_give"

/* Pushes a frame holding `bytes` (what this run needs; worst_case_bytes is
 * quoted in the message only; traits: enum harena_pipeline_traits) and
 * activates the arena on the calling thread for the run, so that the
 * pipeline's unplanned allocations bump in the same frame when the override
 * is linked. Checks that user_context is a live arena whose device interface
 * is device_interface (NULL: host pipeline) and whose alignment is a multiple
 * of `alignment`, the one the pipeline's offsets were planned at: its slices
 * lie at the frame's base plus those offsets, so a coarser plan than the
 * arena's frames would hand out slices less aligned than the plan assumed
 * (HARENA_ERROR_INCOMPATIBLE_ALIGNMENT). */
int harena_pipeline_enter(void *user_context, const char *pipeline,
                          const struct halide_device_interface_t *device_interface, uint64_t bytes,
                          uint64_t worst_case_bytes, uint32_t traits, uint64_t alignment);

/* A GPU pipeline that plans no buffer opens no frame: it calls this at its
 * start instead, declaring its traits (enum harena_pipeline_traits). It needs
 * no arena, so user_context may be anything (NULL, a program's own struct, an
 * arena), and it returns 0, except when user_context is an arena whose graph
 * cache is capturing the call (harena/cuda.h): there the capture learns the
 * traits, and a pipeline not declared capturable returns
 * HARENA_NOT_CAPTURABLE before any work, to run again, normally, after the
 * capture. */
int harena_pipeline_declare(void *user_context, uint32_t traits);

/* Host-only buffers of a planned GPU pipeline (a CPU stage between GPU
 * stages) lie in its arena's host companion (harena/runtime.h), laid out by a
 * plan of their own: right after harena_pipeline_enter succeeded, the
 * pipeline pushes a frame of `bytes` (this run's need; worst_case_bytes, 0
 * for none, sizes a companion created here and is quoted in messages) on the
 * companion, creating it if there is none. `buffers` names those buffers for
 * messages. HARENA_ERROR_OVERFLOW, naming the pipeline, buffers and bytes,
 * when the companion cannot hold the frame and cannot grow (it grows only
 * while no frame is pushed on it);
 * HARENA_ERROR_OUT_OF_MEMORY when it cannot be allocated; in both cases the
 * companion is left as it was. Pipelines that plan no host buffer never call
 * these. */
int harena_pipeline_host_enter(void *user_context, const char *pipeline, const char *buffers, uint64_t bytes,
                               uint64_t worst_case_bytes);

/* Address of the companion frame the innermost harena_pipeline_host_enter
 * pushed; 0 after reporting an error if there is none. */
uint64_t harena_pipeline_host_base(void *user_context);

/* Pops the companion frame based at frame_base_as_pointer, which must be the
 * companion's top frame. Registered as a destructor so that it runs on
 * success and error paths. */
void harena_pipeline_host_exit_as_destructor(void *user_context, void *frame_base_as_pointer);

/* For planned buffers Halide keeps on host and device: frees the host part
 * (halide_free) and detaches the device part, an arena slice. Called by
 * planned pipelines where Halide would call halide_device_and_host_free. */
int harena_planned_host_free(void *user_context, struct halide_buffer_t *buf);
/* The same, in the form Halide registers as a destructor (buf as void *). */
void harena_planned_host_free_as_destructor(void *user_context, void *buf);

/* For planned buffers on host and device whose host stage reads only scalar
 * arguments and other such stages, so that their contents are a function of
 * a graph cache's key: called where Halide calls
 * halide_device_and_host_malloc, and does the same, except while the call is
 * captured by a graph cache (harena/cuda.h): then the host part is a pinned
 * block the cached graph owns, which the captured upload copies from at every
 * replay and harena_planned_host_free leaves to the graph. */
int harena_key_host_malloc(void *user_context, struct halide_buffer_t *buf,
                           const struct halide_device_interface_t *device_interface);

/* Device memory for a planned pipeline's argument buffers (inputs, outputs,
 * buffers compiled into it), which the caller keeps after the call: planned
 * pipelines call these where Halide calls halide_copy_to_device,
 * halide_device_malloc and halide_device_and_host_malloc on such a buffer.
 * They make those calls with the calling thread's scopes suspended, so the
 * memory never comes from the call's frame (with the override linked, it
 * comes from Halide's default allocator, as without an arena). */
int harena_argument_copy_to_device(void *user_context, struct halide_buffer_t *buf,
                                   const struct halide_device_interface_t *device_interface);
int harena_argument_device_malloc(void *user_context, struct halide_buffer_t *buf,
                                  const struct halide_device_interface_t *device_interface);
int harena_argument_device_and_host_malloc(void *user_context, struct halide_buffer_t *buf,
                                           const struct halide_device_interface_t *device_interface);

/* Guard mode (harena_options.guard) for planned pipelines. */

/* The band a planned pipeline leaves after each of its slices (and at the
 * start of its frame) in this call: 0 when the arena's guard mode is off or
 * user_context is not a live arena (harena_pipeline_enter reports that). */
uint64_t harena_pipeline_guard_bytes(void *user_context);

/* Guard mode and memory checkers for a planned pipeline's slices, while
 * either is on in the call (its band, harena_pipeline_guard_bytes, is
 * nonzero or harena_nvtx_attached is). The pipeline builds one slice table
 * per call where its frame opens, reports each slice event on it, and ends
 * with harena_pipeline_slices_end before it returns. Pipelines for device
 * targets report every slice handed out and freed; those for host targets,
 * where only guard mode asks, report slices handed out only (a band is then
 * checked when a later slice reuses its bytes, or when the frame ends). */
struct harena_slice_table {
    /* A constant of the pipeline: its name, then the buffer of each slice in
     * index order, each line ended by '\n'. */
    const char *names;
    /* The first error of the call's slice events; 0 until one fails. */
    int32_t status;
};

/* What a slice event says of its slice (harena_pipeline_slice's `live`). */
enum harena_slice_event {
    HARENA_SLICE_FREED = 0,
    HARENA_SLICE_HANDED_OUT = 1,
    /* A task of a planned parallel loop took the slot at `address`: the band
     * that opens the slot (before its first slice, as a frame opens with
     * one) is filled; line `index` of the table names the slot's loop. */
    HARENA_SLICE_SLOT_OPENED = 2,
};

/* The slice of buffer `index` is handed out (live HARENA_SLICE_HANDED_OUT)
 * or freed (HARENA_SLICE_FREED), or a slot opened. It lies at `address` and holds `slice_bytes` in this call, of which its
 * buffer uses `bytes` (both ignored when freed). Handed out: declared live
 * to an attached memory checker (a region of the arena's NVTX heap, see
 * harena_nvtx_attached), then it checks the bands of earlier slices whose
 * bytes it reuses and fills its own band, from `bytes` to the end of the
 * slice and on for the guard band, naming the pipeline and the buffer in
 * reports. Freed: its band checked and forgotten, then declared no longer
 * live. HARENA_ERROR_NOT_IN_ARENA when the slice with its band does not lie
 * in the arena; HARENA_ERROR_GUARD_DAMAGED after reporting a damaged band.
 * Returns the first of those errors, which it also records in table->status
 * unless an earlier event's is there: the pipeline goes on, so that every later slice is banded and checked as usual, and
 * fails when its frame ends. */
int harena_pipeline_slice(void *user_context, struct harena_slice_table *table, uint32_t index, int live,
                          uint64_t address, uint64_t slice_bytes, uint64_t bytes);

/* Before a successful return: the first error of the call's slice events,
 * else, in guard mode, the check of the band that starts the frame based at
 * frame_base and of the bands of its slices not reported freed, so that a
 * damaged band fails the call: the frame's pop can only report. */
int harena_pipeline_slices_end(void *user_context, struct harena_slice_table *table, uint64_t frame_base);

/* The slots of a planned parallel loop, for pipelines whose arena is
 * user_context (a pipeline with an arena argument calls nothing of the
 * runtime and keeps its slots under a halide_mutex instead). The pipeline
 * holds the pool on its stack beside the loop, HARENA_SLOT_POOL_WORDS(slots)
 * 64-bit words (one cache line more than it uses, for alignment), fills it before the loop runs, and each task takes a slot
 * when it starts and gives it back when it ends: one atomic operation each,
 * on a cache line of the slot's own. A thread tries the slot it took last
 * first, so that while each thread runs one task at a time, no two threads
 * write one line. A task that finds every slot taken gets -1 and allocates
 * its buffers from halide_malloc. */
#define HARENA_SLOT_POOL_WORDS(slots) (8 * ((slots) + 2))

/* Fills `pool` for one run of its loop: `slots` slots (none where it is 0
 * or less), each free, the counters at zero. */
int harena_slot_pool_init(uint64_t *pool, int32_t slots);

/* A free slot of `pool`, now the calling task's: its index, or -1 when every
 * slot is taken. */
int32_t harena_slot_take(uint64_t *pool);

/* Gives back `slot`, which harena_slot_take returned to the calling task. */
int harena_slot_give(uint64_t *pool, int32_t slot);

/* One run of the pool's loop ended: its tasks that took a slot, those that
 * found every slot taken, and how many of the slots they used, counted in
 * harena_stats. */
int harena_pipeline_slots(void *user_context, const uint64_t *pool);

/* Address of the frame the innermost harena_pipeline_enter pushed; 0 after
 * reporting an error if there is none. */
uint64_t harena_pipeline_base(void *user_context);

/* Pops the frame based at frame_base_as_pointer, which must be the top frame,
 * and deactivates the arena. Registered as a destructor so that it runs on
 * success and error paths. */
void harena_pipeline_exit_as_destructor(void *user_context, void *frame_base_as_pointer);

/* For memory checkers (compute-sanitizer --tool memcheck, through NVTX's
 * memory API; see README.md). While a tool is attached, a device arena's
 * memory is an NVTX sub-allocator heap: only its live slices may be
 * accessed. Allocations are slices from allocation to free or to their
 * frame's pop; a frame's reservation (harena_push, harena_pipeline_enter) is
 * one slice until its pusher describes its own (harena_pipeline_slice), and
 * slices still live when their frame pops end then.
 *
 * Nonzero when a memory checker is attached (NVTX injection loaded), so that
 * a planned pipeline describes its slices only then. */
int harena_nvtx_attached(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HARENA_PIPELINE_ABI_H
