// Calls of pipelines built with the arena feature captured once as CUDA
// graphs and replayed. Such a pipeline allocates nothing during a call (its
// intermediates are planned, or it has none) and its intermediates lie at
// offsets fixed by the call's sizes, so one captured call replays correctly
// for any later call that would launch the same kernels on the same
// addresses: the key is built from exactly what the graph bakes in.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "arena.h"
#include "errors.h"
#include "graph_backend.h"
#include "graph_host_blocks.h"
#include "graph_key.h"
#include "stream_context.h"

namespace {

struct Entry {
    std::string key;
    void *graph = nullptr;
    void *exec = nullptr;                          // set once captured and instantiated
    std::optional<harena_graph_fallback> refused;  // once capture failed for good
    bool signals = false;                          // the graph ends with the cache's replay signal
    uint64_t last_use = 0;
    // The buffers the captured call marked device-dirty (its outputs): a
    // replay runs none of the pipeline's host code, so it marks them itself.
    std::vector<bool> written;
    // The host blocks its copies read (graph_host_blocks.h), freed with it.
    harena::detail::HostBlocks host_blocks;
};

}  // namespace

struct harena_graph_cache {
    harena_arena *arena = nullptr;
    uint32_t capacity = 0;
    uint64_t generation = 0;  // of the arena's region the entries were made in
    uint64_t clock = 0;
    std::vector<Entry> entries;
    harena_graph_stats stats{};
    harena::detail::ReplayWaiter waiter;  // what harena_graph_wait waits for
    std::string key;                      // the last call's key
};

namespace harena::detail {

namespace {

void drop(const harena_arena *arena, const GraphBackend *backend, Entry &e) {
    if (backend != nullptr && (e.graph != nullptr || e.exec != nullptr)) {
        backend->destroy(e.graph, e.exec);
    }
    e.graph = e.exec = nullptr;
    free_host_blocks(arena, e.host_blocks);
}

// A region that changed (grown, shrunk) moved every intermediate.
void forget_other_regions(harena_graph_cache &cache, const GraphBackend *backend) {
    if (cache.generation == cache.arena->generation) {
        return;
    }
    for (Entry &e : cache.entries) {
        cache.stats.invalidated += e.exec != nullptr;
        drop(cache.arena, backend, e);
    }
    cache.entries.clear();
    cache.generation = cache.arena->generation;
}

Entry &insert(harena_graph_cache &cache, const GraphBackend *backend, const std::string &key) {
    if (cache.entries.size() >= cache.capacity) {
        size_t oldest = 0;
        for (size_t i = 1; i < cache.entries.size(); i++) {
            if (cache.entries[i].last_use < cache.entries[oldest].last_use) {
                oldest = i;
            }
        }
        cache.stats.evictions += cache.entries[oldest].exec != nullptr;
        drop(cache.arena, backend, cache.entries[oldest]);
        cache.entries.erase(cache.entries.begin() + static_cast<std::ptrdiff_t>(oldest));
    }
    cache.entries.emplace_back();
    cache.entries.back().key = key;
    return cache.entries.back();
}

int ordinary(harena_graph_cache &cache, harena_graph_call call, void *closure, int *outcome, int kind) {
    cache.stats.ordinary++;
    cache.waiter.launched_other();
    *outcome = kind;
    return call(cache.arena, closure);
}

int fall_back(harena_graph_cache &cache, harena_graph_fallback reason, harena_graph_call call, void *closure,
              int *outcome) {
    cache.stats.fallbacks[reason]++;
    return ordinary(cache, call, closure, outcome, HARENA_GRAPH_FELL_BACK);
}

// Captures one call on the arena's stream, with *result the pipeline's
// result. Nothing when e.exec holds the instantiated graph, else why not.
std::optional<harena_graph_fallback> capture(harena_graph_cache &cache, const GraphBackend &backend, Entry &e, harena_graph_call call, void *closure,
                                             int *result) {
    harena_arena &arena = *cache.arena;
    void *stream = arena.cuda.stream();
    // Before the context and the capture: no thread's drain may run while it lasts.
    nvtx_capturing(true);
    StreamContextScope in_context(arena.cuda);
    const ReplaySignal *signal = cache.waiter.for_capture(backend, stream);
    if (backend.begin_capture(stream) != 0) {
        nvtx_capturing(false);
        return HARENA_GRAPH_CAPTURE_FAILED;
    }
    arena.capture.begin();
    const uint64_t allocations = allocation_total(arena);
    bool host_block_missed = false;
    {
        HostBlockCapture host_blocks(arena, e.host_blocks);
        *result = call(&arena, closure);
        host_block_missed = host_blocks.missed;
    }
    const bool allocated = allocation_total(arena) != allocations;
    const Capture::Seen seen = arena.capture.end();
    // The graph's last node: it writes the count a waiting thread reads.
    e.signals = signal != nullptr && backend.signal_enqueue(*signal, stream) == 0;
    void *graph = nullptr;
    const int ended = backend.end_capture(stream, &graph);
    nvtx_capturing(false);
    e.graph = graph;
    if (seen.refused || host_block_missed) {
        return HARENA_GRAPH_NOT_CAPTURABLE;
    }
    if (ended != 0 || graph == nullptr) {
        return HARENA_GRAPH_CAPTURE_FAILED;
    }
    if (*result != 0) {
        return HARENA_GRAPH_PIPELINE_FAILED;
    }
    if (!seen.entered) {
        return HARENA_GRAPH_NOT_PLANNED;
    }
    if (allocated) {
        return HARENA_GRAPH_ALLOCATED;
    }
    // A replay copies what the capture's host stages wrote only if each
    // upload is a copy in the graph from a block the entry owns.
    if (check_host_copies(graph, e.host_blocks) != nullptr) {
        return HARENA_GRAPH_CAPTURE_FAILED;
    }
    if (backend.instantiate(graph, &e.exec) != 0 || e.exec == nullptr) {
        e.exec = nullptr;
        return HARENA_GRAPH_CAPTURE_FAILED;
    }
    return std::nullopt;
}

int launch(harena_graph_cache &cache, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers) {
    StreamContextScope in_context(cache.arena->cuda);
    // The graph runs the captured call's kernels without the call's frame:
    // under a memory checker the bytes above the top, where that frame lay
    // (the key holds the top), are one live region for the launch.
    harena_arena &arena = *cache.arena;
    const uint64_t top = arena.base + top_of(arena);
    const bool checked = arena.nvtx != nullptr && top < arena.base + arena.capacity;
    if (checked) {
        nvtx_reservation_register(*arena.nvtx, top, arena.base + arena.capacity - top);
    }
    const int err = backend.launch(e.exec, arena.cuda.stream());
    if (checked) {
        nvtx_frame_popped(*arena.nvtx, top);
    }
    if (err == 0 && e.signals) {
        cache.waiter.launched_with_signal();
    } else {
        cache.waiter.launched_other();
    }
    if (err != 0) {
        return report_error(cache.arena->user_context, halide_error_code_device_run_failed,
                            "harena_graph_run: cuGraphLaunch failed with CUDA error %d", err);
    }
    for (size_t i = 0; i < e.written.size(); i++) {
        if (e.written[i]) {
            buffers[i]->set_device_dirty(true);
        }
    }
    return 0;
}

int check_run_arguments(const harena_graph_cache *cache, const void *key, size_t key_bytes,
                        halide_buffer_t *const *buffers, int buffer_count, harena_graph_call call) {
    const char *function = "harena_graph_run";
    if (cache == nullptr || call == nullptr || (key == nullptr && key_bytes != 0) ||
        (buffers == nullptr && buffer_count != 0) || buffer_count < 0) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: %s", function,
                            cache == nullptr ? "the cache is NULL" : call == nullptr ? "the call is NULL" :
                                                                                       "the key or the buffer list is NULL with a nonzero size");
    }
    if (int err = check_live(cache->arena, function, nullptr)) {
        return err;
    }
    for (int i = 0; i < buffer_count; i++) {
        if (buffers[i] == nullptr) {
            return report_error(cache->arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                                "%s: buffer argument %d is NULL", function, i);
        }
    }
    return HARENA_OK;
}

// The second sight of these arguments: captured, instantiated and launched,
// or run as an ordinary call for the reason the capture gives.
int capture_and_launch(harena_graph_cache &c, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers,
                       int buffer_count, harena_graph_call call, void *closure, int *outcome) {
    int result = 0;
    for (int i = 0; i < buffer_count; i++) {
        buffers[i]->set_device_dirty(false);  // not stale: the device copy is current (checked by the caller)
    }
    const std::optional<harena_graph_fallback> reason = capture(c, backend, e, call, closure, &result);
    e.written.resize(static_cast<size_t>(buffer_count));
    for (int i = 0; i < buffer_count; i++) {
        e.written[static_cast<size_t>(i)] = buffers[i]->device_dirty();
    }
    if (reason) {
        drop(c.arena, &backend, e);
        // A pipeline error may be this call's alone; the rest are for good.
        if (*reason != HARENA_GRAPH_PIPELINE_FAILED) {
            e.refused = reason;
        }
        return fall_back(c, *reason, call, closure, outcome);
    }
    c.stats.captures++;
    *outcome = HARENA_GRAPH_CAPTURED;
    return launch(c, backend, e, buffers);
}

}  // namespace

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

int harena_graph_cache_create(harena_arena *arena, uint32_t capacity, harena_graph_cache **cache) {
    const char *function = "harena_graph_cache_create";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (cache == nullptr || capacity == 0) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "%s: %s", function,
                            cache == nullptr ? "the output pointer is NULL" : "capacity is 0 graphs");
    }
    auto *c = new harena_graph_cache;
    c->arena = arena;
    c->capacity = capacity;
    c->generation = arena->generation;
    *cache = c;
    return HARENA_OK;
}

int harena_graph_cache_destroy(harena_graph_cache *cache) {
    if (cache == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_graph_cache_destroy: the cache is NULL");
    }
    const GraphBackend *backend = graph_backend();
    if (backend != nullptr && cache->waiter.outstanding()) {
        // Graphs still running write the signal's word: they finish first.
        StreamContextScope in_context(cache->arena->cuda);
        (void)backend->synchronize(cache->arena->cuda.stream());
    }
    for (Entry &e : cache->entries) {
        drop(cache->arena, backend, e);
    }
    if (backend != nullptr) {
        StreamContextScope in_context(cache->arena->cuda);
        cache->waiter.release(*backend);
    }
    delete cache;
    return HARENA_OK;
}

int harena_graph_wait(harena_graph_cache *cache) {
    const char *function = "harena_graph_wait";
    if (cache == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: the cache is NULL", function);
    }
    if (int err = check_live(cache->arena, function, nullptr)) {
        return err;
    }
    if (cache->waiter.signalled()) {
        return HARENA_OK;
    }
    harena_arena &arena = *cache->arena;
    const GraphBackend *backend = graph_backend();
    if (backend == nullptr || arena.cuda.stream() == nullptr) {
        return report_error(arena.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: arena %p has no stream of its own or no CUDA driver, so its calls ran as ordinary "
                            "calls on Halide's stream: wait for them with halide_device_sync",
                            function, static_cast<void *>(&arena));
    }
    StreamContextScope in_context(arena.cuda);
    const int err = backend->synchronize(arena.cuda.stream());
    return err == 0 ? HARENA_OK :
                      report_error(arena.user_context, halide_error_code_device_sync_failed,
                                   "%s: cuStreamSynchronize failed with CUDA error %d", function, err);
}

static int harena_graph_run_unguarded(harena_graph_cache *cache, const void *key, size_t key_bytes, halide_buffer_t *const *buffers,
                                      int buffer_count, harena_graph_call call, void *closure, int *outcome) {
    int ignored;
    outcome = outcome != nullptr ? outcome : &ignored;
    if (int err = check_run_arguments(cache, key, key_bytes, buffers, buffer_count, call)) {
        return err;
    }
    harena_graph_cache &c = *cache;
    harena_arena &arena = *c.arena;
    const GraphBackend *backend = graph_backend();
    c.stats.calls++;
    forget_other_regions(c, backend);
    if (backend == nullptr) {
        return fall_back(c, HARENA_GRAPH_NO_DRIVER, call, closure, outcome);
    }
    if (arena.cuda.stream() == nullptr) {
        return fall_back(c, HARENA_GRAPH_NO_STREAM, call, closure, outcome);
    }
    for (int i = 0; i < buffer_count; i++) {
        if (buffers[i]->device == 0 || buffers[i]->host_dirty()) {
            return fall_back(c, HARENA_GRAPH_ARGUMENT_ON_HOST, call, closure, outcome);
        }
    }
    std::string &k = c.key;
    key_of(k, arena, key, key_bytes, buffers, buffer_count);
    Entry *e = nullptr;
    for (Entry &candidate : c.entries) {
        if (candidate.key == k) {
            e = &candidate;
            break;
        }
    }
    if (e == nullptr) {
        c.stats.misses++;
        insert(c, backend, k).last_use = ++c.clock;
        // Not captured yet: the first call loads the pipeline's modules,
        // which a capture cannot do.
        return ordinary(c, call, closure, outcome, HARENA_GRAPH_RAN);
    }
    e->last_use = ++c.clock;
    if (e->exec != nullptr) {
        c.stats.replays++;
        *outcome = HARENA_GRAPH_REPLAYED;
        return launch(c, *backend, *e, buffers);
    }
    if (e->refused) {
        return fall_back(c, *e->refused, call, closure, outcome);
    }
    return capture_and_launch(c, *backend, *e, buffers, buffer_count, call, closure, outcome);
}

// The work above allocates host memory (names, records); nothing it throws
// leaves the C entry point.
int harena_graph_run(harena_graph_cache *cache, const void *key, size_t key_bytes, halide_buffer_t *const *buffers, int buffer_count, harena_graph_call call, void *closure, int *outcome) {
    return harena::detail::guarded(nullptr, "harena_graph_run", [&] { return harena_graph_run_unguarded(cache, key, key_bytes, buffers, buffer_count, call, closure, outcome); });
}

int harena_graph_get_stats(const harena_graph_cache *cache, harena_graph_stats *stats) {
    if (cache == nullptr || stats == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_graph_get_stats: %s is NULL",
                            cache == nullptr ? "the cache" : "stats");
    }
    *stats = cache->stats;
    return HARENA_OK;
}

const char *harena_graph_fallback_name(int reason) {
    static const char *const names[HARENA_GRAPH_FALLBACK_REASONS] = {
        "no stream", "no driver", "argument on host", "not planned",
        "not capturable", "allocated", "capture failed", "pipeline failed"};
    return reason >= 0 && reason < HARENA_GRAPH_FALLBACK_REASONS ? names[reason] : "unknown";
}

}  // extern "C"
