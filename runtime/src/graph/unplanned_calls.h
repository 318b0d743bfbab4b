// Pipelines built without the arena feature, through the graph cache. Their
// device allocations go through halide_device_malloc, which only the device
// override (runtime/override) serves from an arena: when it is linked into
// the program it lends the cache these runners at start-up, and the cache
// records, places and captures such calls (placed_calls.h there). Without
// it the cache cannot see their allocations and never captures them.
#pragma once

#include <cstddef>
#include <string>

#include "harena/cuda.h"

struct harena_arena;

namespace harena::detail {

// One call's device allocations and their placement: defined by the lender
// (the override), which alone reads it; the cache only holds it.
struct UnplannedRecording;

struct UnplannedCalls {
    // Runs the call in a frame of its own on the arena, active on this
    // thread, recording its device allocations: *recording, owned by the
    // caller, when the call succeeded. The pipeline's result.
    int (*record)(harena_arena &arena, harena_graph_call call, void *closure, UnplannedRecording **recording);
    // Runs the call in such a frame with every allocation at its place in
    // the recording's placement, a block reserved at the frame's base;
    // *difference stays empty unless the call allocated or freed otherwise
    // than the recorded call (those allocations bumped after the block
    // instead): then it says how, for a person.
    int (*place)(harena_arena &arena, const UnplannedRecording &recording, harena_graph_call call, void *closure,
                 std::string *difference);
    // Runs the call in such a frame, allocations bumped.
    int (*run)(harena_arena &arena, harena_graph_call call, void *closure);
    // Why calls that allocate as recorded cannot be replayed (an allocation
    // outlives the call, no placement), or null.
    const char *(*refusal)(const UnplannedRecording &recording);
    // Whether the refusal is that an allocation outlives the call.
    bool (*outlives)(const UnplannedRecording &recording);
    void (*discard)(UnplannedRecording *recording);
};

// The override's halide_malloc and halide_free while the cache captures a
// call of such a pipeline on this thread, where no host stage can read what
// a replay changes (no buffer argument but the call's outputs has a current
// host copy): `bytes` of a new pinned block the graph entry owns, which the
// graph's uploads copy from at every replay, or null (no such capture, no
// pinned memory: the capture is then refused); and whether `host` is such
// a block, whose free leaves it to the entry.
void *capture_host_block(size_t bytes);
bool held_by_plain_capture(const void *host);

// Called once by the override at start-up.
void lend_unplanned_calls(const UnplannedCalls *calls);
// The lent runners, or null when the program has no override.
const UnplannedCalls *unplanned_calls();

}  // namespace harena::detail
