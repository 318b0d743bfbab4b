// A graph cache (harena_graph_cache_create): its entries, one per key, and
// the steps of a call through it, which its entry points (abi.cpp) compose.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/arena_core.h"
#include "core/capture_watch.h"
#include "cuda/state.h"
#include "graph/backend.h"
#include "graph/host_blocks.h"
#include "graph/unplanned_calls.h"
#include "harena/cuda.h"

namespace harena::detail {

// The parts of its arena a graph cache works on, taken at its creation
// (abi.cpp, the feature's one look at the whole arena); they live as long
// as the arena.
struct GraphArena {
    harena_arena *arena = nullptr;    // what calls run on and the registry knows
    ArenaCore *core = nullptr;        // its region, top and generation
    CudaBinding *cuda = nullptr;      // its stream and context
    CaptureWatch *capture = nullptr;  // what a planned pipeline's entry tells a capture
};

// Why a call ran as an ordinary call, and what a user can act on: the driver
// call and its error, the pipeline or buffer involved.
struct Fallback {
    harena_graph_fallback reason;
    std::string cause;
};

struct Entry {
    std::string key;
    void *graph = nullptr;
    void *exec = nullptr;             // set once captured and instantiated
    std::optional<Fallback> refused;  // once capture failed for good
    bool signals = false;             // the graph ends with the cache's replay signal
    uint64_t last_use = 0;
    // The buffers the captured call marked device-dirty (its outputs): a
    // replay runs none of the pipeline's host code, so it marks them itself.
    std::vector<bool> written;
    // A pipeline built without the arena feature: the buffers its key's
    // first call turned device-dirty (its outputs, which no host stage reads).
    std::vector<bool> first_written;
    // The host blocks its copies read (graph/host_blocks.h), freed with it.
    HostBlocks host_blocks;
    // Where the override is linked: the device allocations of the key's
    // first call, placed (graph/unplanned_calls.h), freed with it.
    UnplannedRecording *recording = nullptr;
};

}  // namespace harena::detail

struct harena_graph_cache {
    harena::detail::GraphArena on;
    uint32_t capacity = 0;
    uint64_t generation = 0;  // of the arena's region the entries were made in
    uint64_t clock = 0;
    std::vector<harena::detail::Entry> entries;
    harena_graph_stats stats{};
    harena::detail::ReplayWaiter waiter;  // what harena_graph_wait waits for
    std::string key;                      // the last call's key
    // By reason: the cause of the latest fallback, and whether one was noticed.
    std::string causes[HARENA_GRAPH_FALLBACK_REASONS];
    bool noticed[HARENA_GRAPH_FALLBACK_REASONS] = {};
};

namespace harena::detail {

// Destroys an entry's graph and frees the host blocks it read.
void drop(const GraphArena &on, const GraphBackend *backend, Entry &e);
// A region that changed (grown, shrunk) moved every intermediate: every
// entry made in another region goes.
void forget_other_regions(harena_graph_cache &cache, const GraphBackend *backend);
// A new entry for `key`, evicting the least recently used one when full.
Entry &insert(harena_graph_cache &cache, const GraphBackend *backend, const std::string &key);
// What every ordinary call counts: one more, no replay signal to wait for,
// its outcome `kind`.
void count_ordinary(harena_graph_cache &cache, int *outcome, int kind);
// The call run as an ordinary one, its outcome `kind`.
int ordinary(harena_graph_cache &cache, harena_graph_call call, void *closure, int *outcome, int kind);
// The call run as an ordinary one, counted under its reason with its cause
// kept (harena_graph_fallback_cause); the first of each reason is noticed.
int fall_back(harena_graph_cache &cache, const Fallback &fallback, harena_graph_call call, void *closure,
              int *outcome);
// Replays the entry's graph for these buffers.
int launch(harena_graph_cache &cache, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers);
// Each buffer's device_dirty flag.
std::vector<bool> device_dirty_flags(halide_buffer_t *const *buffers, int buffer_count);
// harena_graph_run's argument checks.
int check_run_arguments(const harena_graph_cache *cache, const void *key, size_t key_bytes,
                        halide_buffer_t *const *buffers, int buffer_count, harena_graph_call call);
// A key's first call where the override is linked (graph/unplanned.cpp):
// an ordinary call whose device allocations are recorded and placed for the
// key's capture, and which buffers it wrote is kept (Entry::first_written).
int record(harena_graph_cache &cache, const UnplannedCalls &unplanned, Entry &e, halide_buffer_t *const *buffers,
           int buffer_count, harena_graph_call call, void *closure, int *outcome);
// The first buffer argument with a current host copy (host memory, its
// device copy not marked newer) that the key's first call did not write,
// which a host stage may read without a copy a graph would repeat; or -1.
int host_copy_readable(const Entry &e, halide_buffer_t *const *buffers, int buffer_count);
// The call, under capture: with the key's recorded allocations at their
// places where there is a recording (*difference: empty when the call
// allocated as recorded, else the first difference), else as it is.
int captured_call(harena_arena &arena, const Entry &e, harena_graph_call call, void *closure,
                  std::string *difference);
// The call as an ordinary one: in a frame of the override's where it is
// linked (a pipeline built without the arena feature then allocates from
// the arena too, on its stream), else as it is.
int uncaptured_call(harena_arena &arena, harena_graph_call call, void *closure);
// What the key's recorded first call rules out before any capture.
std::optional<Fallback> refusal_of_recording(const Entry &e);

// The second sight of these arguments: captured, instantiated and launched,
// or run as an ordinary call for the reason the capture gives.
int capture_and_launch(harena_graph_cache &c, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers,
                       int buffer_count, harena_graph_call call, void *closure, int *outcome);

}  // namespace harena::detail
