// Calls of pipelines built with the arena feature captured once as CUDA
// graphs and replayed. Such a pipeline allocates nothing during a call (its
// intermediates are planned, or it has none) and its intermediates lie at
// offsets fixed by the call's sizes, so one captured call replays correctly
// for any later call that would launch the same kernels on the same
// addresses: the key is built from exactly what the graph bakes in. The
// cache's work (cache.h); its entry points are in abi.cpp.
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/cache.h"

#include "core/checking.h"
#include "core/errors.h"
#include "core/registry.h"
#include "cuda/stream_context.h"
#include "graph/concurrent_kernels.h"
#include "graph/graph_dump.h"
#include "graph/host_blocks.h"

namespace harena::detail {

void drop(const GraphArena &on, const GraphBackend *backend, Entry &e) {
    if (backend != nullptr && (e.graph != nullptr || e.exec != nullptr)) {
        backend->destroy(e.graph, e.exec);
    }
    e.graph = e.exec = nullptr;
    // The arena's context for the frees, where it is still live.
    const bool live = !e.host_blocks.empty() && is_registered(on.arena);
    free_host_blocks(live ? on.cuda : nullptr, e.host_blocks);
    if (e.recording != nullptr) {
        unplanned_calls()->discard(e.recording);
        e.recording = nullptr;
    }
}

// A region that changed (grown, shrunk) moved every intermediate.
void forget_other_regions(harena_graph_cache &cache, const GraphBackend *backend) {
    if (cache.generation == cache.on.core->generation) {
        return;
    }
    for (Entry &e : cache.entries) {
        cache.stats.invalidated += e.exec != nullptr;
        drop(cache.on, backend, e);
    }
    cache.entries.clear();
    cache.generation = cache.on.core->generation;
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
        drop(cache.on, backend, cache.entries[oldest]);
        cache.entries.erase(cache.entries.begin() + static_cast<std::ptrdiff_t>(oldest));
    }
    cache.entries.emplace_back();
    cache.entries.back().key = key;
    return cache.entries.back();
}

void count_ordinary(harena_graph_cache &cache, int *outcome, int kind) {
    cache.stats.ordinary++;
    cache.waiter.launched_other();
    *outcome = kind;
}

int ordinary(harena_graph_cache &cache, harena_graph_call call, void *closure, int *outcome, int kind) {
    count_ordinary(cache, outcome, kind);
    return uncaptured_call(*cache.on.arena, call, closure);
}

int fall_back(harena_graph_cache &cache, const Fallback &fallback, harena_graph_call call, void *closure,
              int *outcome) {
    const int reason = fallback.reason;
    cache.stats.fallbacks[reason]++;
    cache.causes[reason] = fallback.cause;
    if (!cache.noticed[reason]) {
        cache.noticed[reason] = true;
        report_notice(cache.on.core->user_context,
                      "harena_graph_run: a call ran as an ordinary call (%s): %s. Each fallback is counted in "
                      "harena_graph_stats.fallbacks; harena_graph_fallback_cause gives the latest cause of each "
                      "reason. Noticed once per reason and cache",
                      harena_graph_fallback_name(reason), fallback.cause.c_str());
    }
    return ordinary(cache, call, closure, outcome, HARENA_GRAPH_FELL_BACK);
}

namespace {

// The checking feature, where it is linked, sees captures begin and end
// (core/checking.h).
void tell_checking(bool capturing) {
    if (checking != nullptr) {
        checking->capturing(capturing);
    }
}

// Captures one call on the arena's stream, with *result the pipeline's
// result. Nothing when e.exec holds the instantiated graph, else why not.
// `plain`: a call of a pipeline built without the arena feature whose
// halide_malloc blocks come from blocks the entry owns (capture_host_block).
std::optional<Fallback> capture(harena_graph_cache &cache, const GraphBackend &backend, Entry &e,
                                harena_graph_call call, void *closure, bool plain, int *result) {
    const GraphArena &on = cache.on;
    void *stream = on.cuda->stream();
    // Before the context and the capture: no thread's drain may run while it lasts.
    tell_checking(true);
    StreamContextScope in_context(*on.cuda);
    const ReplaySignal *signal = cache.waiter.for_capture(backend, stream);
    if (const int err = backend.begin_capture(stream)) {
        tell_checking(false);
        return Fallback{HARENA_GRAPH_CAPTURE_FAILED, driver_failure("cuStreamBeginCapture", err) +
                                                         " on the arena's stream, before the call ran"};
    }
    on.capture->begin();
    const uint64_t allocations = allocation_total(*on.core);
    bool host_block_missed = false;
    std::string difference;
    {
        HostBlockCapture host_blocks(*on.arena, e.host_blocks);
        host_blocks.plain = plain;
        *result = captured_call(*on.arena, e, call, closure, &difference);
        host_block_missed = host_blocks.missed;
    }
    const uint64_t allocated = allocation_total(*on.core) - allocations;
    const CaptureWatch::Seen seen = on.capture->end();
    // The graph's last node: it writes the count a waiting thread reads.
    e.signals = signal != nullptr && backend.signal_enqueue(*signal, stream) == 0;
    void *graph = nullptr;
    const int ended = backend.end_capture(stream, &graph);
    tell_checking(false);
    e.graph = graph;
    if (seen.refused) {
        return Fallback{HARENA_GRAPH_NOT_CAPTURABLE, seen.refusal};
    }
    if (host_block_missed) {
        return Fallback{HARENA_GRAPH_NOT_CAPTURABLE,
                        "a host stage's buffer got no pinned block (cuMemHostAlloc failed, or no driver): it lived "
                        "in memory the call frees, which a graph must not copy from"};
    }
    if (ended != 0 || graph == nullptr) {
        return Fallback{HARENA_GRAPH_CAPTURE_FAILED,
                        driver_failure("cuStreamEndCapture", ended) +
                            (seen.entered ? std::string(" after the call, which entered ") + seen.pipeline :
                                            std::string(" after the call")) +
                            ": a driver call inside it broke the capture (a synchronous copy, a synchronisation, "
                            "a driver allocation, or work on another stream it waits for)"};
    }
    if (*result != 0) {
        return Fallback{HARENA_GRAPH_PIPELINE_FAILED,
                        "the pipeline returned " + std::to_string(*result) + " while it was captured"};
    }
    // A call that entered no planned frame allocated through the override,
    // which placed its allocations, or it cannot be replayed.
    if (!seen.entered && e.recording == nullptr) {
        return Fallback{HARENA_GRAPH_NOT_PLANNED,
                        "the call entered no pipeline built with the arena feature in this arena, and the program "
                        "links no override (harena_device_override) to place the allocations of one built without "
                        "it"};
    }
    if (!difference.empty()) {
        return Fallback{HARENA_GRAPH_ALLOCATIONS_CHANGED, difference};
    }
    if (allocated != 0) {
        return Fallback{HARENA_GRAPH_ALLOCATED,
                        std::to_string(allocated) + " allocation(s) in the arena while the call was captured" +
                            (seen.entered ? std::string(" (in ") + seen.pipeline + ")" : std::string()) +
                            ": a graph would replay them at addresses a later call may use otherwise"};
    }
    // A replay copies what the capture's host stages wrote only if each
    // upload is a copy in the graph from a block the entry owns.
    const std::string copies = check_host_copies(graph, e.host_blocks);
    if (!copies.empty()) {
        return Fallback{HARENA_GRAPH_CAPTURE_FAILED, copies};
    }
    if (graph_backend_is_cuda()) {
        if (side_by_side_enabled()) {
            cache.stats.unordered_edges +=
                run_independent_kernels_side_by_side(graph, on.core->base, on.core->capacity);
        }
        dump_graph_if_asked(graph);
    }
    const int instantiated = backend.instantiate(graph, &e.exec);
    if (instantiated != 0 || e.exec == nullptr) {
        e.exec = nullptr;
        return Fallback{HARENA_GRAPH_CAPTURE_FAILED, driver_failure("cuGraphInstantiateWithFlags", instantiated) +
                                                         " for the captured graph"};
    }
    return std::nullopt;
}

}  // namespace

int launch(harena_graph_cache &cache, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers) {
    const GraphArena &on = cache.on;
    StreamContextScope in_context(*on.cuda);
    // The graph runs the captured call's kernels without the call's frame:
    // under a memory checker the bytes above the top, where that frame lay
    // (the key holds the top), are one live region for the launch.
    const uint64_t top = on.core->base + top_of(*on.core);
    const bool checked = checking != nullptr && checking->replay_launching(*on.arena, top);
    const int err = backend.launch(e.exec, on.cuda->stream());
    if (checked) {
        checking->replay_launched(*on.arena, top);
    }
    if (err == 0 && e.signals) {
        cache.waiter.launched_with_signal();
    } else {
        cache.waiter.launched_other();
    }
    if (err != 0) {
        return report_error(on.core->user_context, halide_error_code_device_run_failed,
                            "harena_graph_run: cuGraphLaunch failed with CUDA error %d", err);
    }
    for (size_t i = 0; i < e.written.size(); i++) {
        if (e.written[i]) {
            buffers[i]->set_device_dirty(true);
        }
    }
    return 0;
}

std::vector<bool> device_dirty_flags(halide_buffer_t *const *buffers, int buffer_count) {
    std::vector<bool> flags(static_cast<size_t>(buffer_count));
    for (int i = 0; i < buffer_count; i++) {
        flags[static_cast<size_t>(i)] = buffers[i]->device_dirty();
    }
    return flags;
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
    if (int err = check_live(cache->on.arena, function, nullptr)) {
        return err;
    }
    for (int i = 0; i < buffer_count; i++) {
        if (buffers[i] == nullptr) {
            return report_error(cache->on.core->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                                "%s: buffer argument %d is NULL", function, i);
        }
    }
    return HARENA_OK;
}

// The second sight of these arguments: captured, instantiated and launched,
// or run as an ordinary call for the reason the capture gives.
int capture_and_launch(harena_graph_cache &c, const GraphBackend &backend, Entry &e, halide_buffer_t *const *buffers,
                       int buffer_count, harena_graph_call call, void *closure, int *outcome) {
    if (std::optional<Fallback> refused = refusal_of_recording(e)) {
        drop(c.on, &backend, e);
        e.refused = std::move(refused);
        return fall_back(c, *e.refused, call, closure, outcome);
    }
    int result = 0;
    // A plain call's host stages write blocks the graph owns only where none
    // can read what a replay changes.
    const int readable = e.recording != nullptr ? host_copy_readable(e, buffers, buffer_count) : -1;
    // Cleared so that the call's outputs show (the device copies are
    // current: checked by the caller), and given back to the buffers the
    // call did not write.
    const std::vector<bool> dirty_before = device_dirty_flags(buffers, buffer_count);
    for (int i = 0; i < buffer_count; i++) {
        buffers[i]->set_device_dirty(false);
    }
    std::optional<Fallback> reason = capture(c, backend, e, call, closure, e.recording != nullptr && readable < 0, &result);
    if (reason && reason->reason == HARENA_GRAPH_CAPTURE_FAILED && readable >= 0) {
        reason->cause += ". Buffer argument " + std::to_string(readable) +
                         " has a current host copy, which a host stage could read without a copy the graph "
                         "repeats; passed without host memory, or with its device copy marked newer "
                         "(set_device_dirty()), the call's host stages write blocks the graph owns";
    }
    e.written.resize(static_cast<size_t>(buffer_count));
    for (int i = 0; i < buffer_count; i++) {
        e.written[static_cast<size_t>(i)] = buffers[i]->device_dirty();
        if (!e.written[static_cast<size_t>(i)] && dirty_before[static_cast<size_t>(i)]) {
            buffers[i]->set_device_dirty(true);
        }
    }
    if (reason) {
        drop(c.on, &backend, e);
        // A pipeline error may be this call's alone; the rest are for good.
        if (reason->reason != HARENA_GRAPH_PIPELINE_FAILED) {
            e.refused = reason;
        }
        return fall_back(c, *reason, call, closure, outcome);
    }
    c.stats.captures++;
    *outcome = HARENA_GRAPH_CAPTURED;
    return launch(c, backend, e, buffers);
}

}  // namespace harena::detail
