// Pipelines built without the arena feature through the graph cache: the
// runners the override lends (graph/unplanned_calls.h) and the cache's
// steps that use them.
#include <atomic>

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

int record(harena_graph_cache &cache, const UnplannedCalls &unplanned, Entry &e, harena_graph_call call,
           void *closure, int *outcome) {
    count_ordinary(cache, outcome, HARENA_GRAPH_RAN);
    UnboundCallsOn on_arena(*cache.on.arena);
    return unplanned.record(*cache.on.arena, call, closure, &e.recording);
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
