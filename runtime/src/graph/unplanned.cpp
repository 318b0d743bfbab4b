// Pipelines built without the arena feature through the graph cache: the
// runners the override lends (graph/unplanned_calls.h) and the cache's
// steps that use them.
#include <atomic>
#include <vector>

#include "cuda/stream_context.h"
#include "graph/cache.h"

namespace harena::detail {

namespace {

// Set once, before main, by the override's static initialisation.
std::atomic<const UnplannedCalls *> lent{nullptr};

}  // namespace

void lend_unplanned_calls(const UnplannedCalls *calls) {
    lent.store(calls, std::memory_order_release);
}

const UnplannedCalls *unplanned_calls() {
    return lent.load(std::memory_order_acquire);
}

int record(harena_graph_cache &cache, const UnplannedCalls &unplanned, Entry &e, halide_buffer_t *const *buffers,
           int buffer_count, harena_graph_call call, void *closure, int *outcome) {
    count_ordinary(cache, outcome, HARENA_GRAPH_RAN);
    const std::vector<bool> dirty_before = device_dirty_flags(buffers, buffer_count);
    UnboundCallsOn on_arena(*cache.on.arena);
    const int result = unplanned.record(*cache.on.arena, call, closure, &e.recording);
    e.first_written.assign(static_cast<size_t>(buffer_count), false);
    for (int i = 0; i < buffer_count; i++) {
        e.first_written[static_cast<size_t>(i)] = !dirty_before[static_cast<size_t>(i)] && buffers[i]->device_dirty();
    }
    return result;
}

int host_copy_readable(const Entry &e, halide_buffer_t *const *buffers, int buffer_count) {
    for (int i = 0; i < buffer_count; i++) {
        const bool output = static_cast<size_t>(i) < e.first_written.size() && e.first_written[static_cast<size_t>(i)];
        if (buffers[i]->host != nullptr && !buffers[i]->device_dirty() && !output) {
            return i;
        }
    }
    return -1;
}

int captured_call(harena_arena &arena, const Entry &e, harena_graph_call call, void *closure,
                  std::string *difference) {
    const UnplannedCalls *unplanned = unplanned_calls();
    if (unplanned == nullptr || e.recording == nullptr) {
        return call(&arena, closure);
    }
    UnboundCallsOn on_arena(arena);
    return unplanned->place(arena, *e.recording, call, closure, difference);
}

int uncaptured_call(harena_arena &arena, harena_graph_call call, void *closure) {
    const UnplannedCalls *unplanned = unplanned_calls();
    if (unplanned == nullptr) {
        return call(&arena, closure);
    }
    UnboundCallsOn on_arena(arena);
    return unplanned->run(arena, call, closure);
}

std::optional<Fallback> refusal_of_recording(const Entry &e) {
    const UnplannedCalls *unplanned = unplanned_calls();
    const char *refusal = e.recording != nullptr ? unplanned->refusal(*e.recording) : nullptr;
    if (refusal == nullptr) {
        return std::nullopt;
    }
    return Fallback{unplanned->outlives(*e.recording) ? HARENA_GRAPH_OUTLIVES_CALL : HARENA_GRAPH_CAPTURE_FAILED,
                    refusal};
}

}  // namespace harena::detail
