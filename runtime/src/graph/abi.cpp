// The graph cache's entry points (harena_graph_cache_create, _run, _wait and
// the rest; the cache's work is in cache.cpp), the key-host buffers of calls
// being captured (harena_key_host_malloc, host_blocks.h), and the release of planned
// buffers that Halide keeps on host and device. The pass binds their device
// part to an arena slice and leaves the host part to
// halide_device_and_host_malloc; where Halide would free both, planned
// pipelines call harena_planned_host_free instead, so the slice never
// reaches Halide's device free (its allocation cache, or cuMemFree on an
// interior pointer), and a host block a graph being captured owns stays.
#include "core/arena.h"
#include "core/errors.h"
#include "cuda/stream_context.h"
#include "graph/cache.h"
#include "graph/host_blocks.h"
#include "graph/key.h"
#include "harena/runtime.h"

#include <algorithm>
#include <cstring>
#include <string>

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
    c->on = GraphArena{arena, arena, &arena->cuda, &arena->capture};
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
        StreamContextScope in_context(*cache->on.cuda);
        (void)backend->synchronize(cache->on.cuda->stream());
    }
    for (Entry &e : cache->entries) {
        drop(cache->on, backend, e);
    }
    if (backend != nullptr) {
        StreamContextScope in_context(*cache->on.cuda);
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
    if (int err = check_live(cache->on.arena, function, nullptr)) {
        return err;
    }
    cache->waiter.wanted();
    if (cache->waiter.signalled()) {
        return HARENA_OK;
    }
    harena_arena &arena = *cache->on.arena;
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
    harena_arena &arena = *c.on.arena;
    const GraphBackend *backend = graph_backend();
    c.stats.calls++;
    forget_other_regions(c, backend);
    if (backend == nullptr) {
        return fall_back(c,
                         Fallback{HARENA_GRAPH_NO_DRIVER, "no CUDA driver with graph functions was loaded (libcuda.so.1, "
                                                          "with cuStreamBeginCapture and cuGraphInstantiateWithFlags)"},
                         call, closure, outcome);
    }
    if (arena.cuda.stream() == nullptr) {
        return fall_back(c,
                         Fallback{HARENA_GRAPH_NO_STREAM, "the arena has no stream of its own, and the legacy default "
                                                          "stream cannot be captured: give it one "
                                                          "(harena_create_cuda_stream)"},
                         call, closure, outcome);
    }
    for (int i = 0; i < buffer_count; i++) {
        if (buffers[i]->device == 0 || buffers[i]->host_dirty()) {
            const std::string cause =
                "buffer argument " + std::to_string(i) +
                (buffers[i]->device == 0 ? std::string(" has no device memory") :
                                           std::string("'s host copy is newer than its device copy (host_dirty)")) +
                ": copy it to the device before the call, with the arena as user_context so that the copy runs "
                "on the arena's stream";
            return fall_back(c, Fallback{HARENA_GRAPH_ARGUMENT_ON_HOST, cause}, call, closure, outcome);
        }
    }
    std::string &k = c.key;
    key_of(k, arena, arena.cuda.stream(), key, key_bytes, buffers, buffer_count);
    Entry *e = nullptr;
    for (Entry &candidate : c.entries) {
        if (candidate.key == k) {
            e = &candidate;
            break;
        }
    }
    const UnplannedCalls *unplanned = unplanned_calls();
    if (e == nullptr) {
        c.stats.misses++;
        e = &insert(c, backend, k);
        e->last_use = ++c.clock;
        // Not captured yet: the first call loads the pipeline's modules,
        // which a capture cannot do; where the override is linked, it
        // records the call's device allocations.
        return unplanned != nullptr ? record(c, *unplanned, *e, buffers, buffer_count, call, closure, outcome) :
                                      ordinary(c, call, closure, outcome, HARENA_GRAPH_RAN);
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
    if (unplanned != nullptr && e->recording == nullptr) {
        return record(c, *unplanned, *e, buffers, buffer_count, call, closure, outcome);  // the key's first call failed
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

int harena_graph_fallback_cause(const harena_graph_cache *cache, int reason, char *text, size_t bytes) {
    if (cache == nullptr || (text == nullptr && bytes != 0)) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_graph_fallback_cause: %s is NULL",
                            cache == nullptr ? "the cache" : "the text");
    }
    if (reason < 0 || reason >= HARENA_GRAPH_FALLBACK_REASONS) {
        return report_error(cache->on.core->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_graph_fallback_cause: reason %d is not an enum harena_graph_fallback (0 to %d)",
                            reason, HARENA_GRAPH_FALLBACK_REASONS - 1);
    }
    const std::string &cause = cache->causes[reason];
    if (bytes != 0) {
        const size_t n = std::min(cause.size(), bytes - 1);
        std::memcpy(text, cause.data(), n);
        text[n] = '\0';
    }
    return static_cast<int>(cause.size());
}

const char *harena_graph_fallback_name(int reason) {
    static const char *const names[HARENA_GRAPH_FALLBACK_REASONS] = {
        "no stream", "no driver", "argument on host", "not planned",
        "not capturable", "allocated", "capture failed", "pipeline failed",
        "allocation outlives the call", "allocations changed"};
    return reason >= 0 && reason < HARENA_GRAPH_FALLBACK_REASONS ? names[reason] : "unknown";
}

// From the Halide runtime every planned pipeline links; weak so that the
// arena runtime links into programs without one.
void halide_free(void *user_context, void *ptr) __attribute__((weak));

int harena_planned_host_free(void *user_context, halide_buffer_t *buf) {
    if (buf == nullptr) {
        return 0;
    }
    // A block a graph being captured owns (harena_key_host_malloc) stays:
    // the graph copies from it at every replay.
    if (buf->host != nullptr && halide_free != nullptr &&
        !harena::detail::held_by_capture(user_context, buf->host)) {
        halide_free(user_context, buf->host);
    }
    buf->host = nullptr;
    buf->device = 0;
    buf->device_interface = nullptr;
    buf->set_host_dirty(false);
    buf->set_device_dirty(false);
    return 0;
}

void harena_planned_host_free_as_destructor(void *user_context, void *buf) {
    (void)harena_planned_host_free(user_context, static_cast<halide_buffer_t *>(buf));
}

static int harena_key_host_malloc_unguarded(void *user_context, halide_buffer_t *buf,
                                            const halide_device_interface_t *device_interface) {
    if (buf == nullptr || device_interface == nullptr) {
        return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_key_host_malloc: %s is NULL",
                            buf == nullptr ? "the buffer" : "the device interface");
    }
    HostBlockCapture *c = host_block_capture();
    if (c != nullptr && c->arena == user_context && !c->missed) {
        const PinnedHostBackend *backend = pinned_host_backend();
        const size_t bytes = buf->size_in_bytes();
        void *host = nullptr;
        if (backend != nullptr && backend->alloc(std::max<size_t>(bytes, 1), &host) == 0 && host != nullptr) {
            c->blocks.push_back(HostBlock{host, bytes});
            buf->host = static_cast<uint8_t *>(host);
            return 0;
        }
        // The graph would copy from memory this call frees: the capture is
        // refused, and the call goes on as an ordinary one.
        c->missed = true;
    }
    return device_interface->device_and_host_malloc(user_context, buf, device_interface);
}

int harena_key_host_malloc(void *user_context, halide_buffer_t *buf,
                           const halide_device_interface_t *device_interface) {
    return guarded(user_context, "harena_key_host_malloc",
                   [&] { return harena_key_host_malloc_unguarded(user_context, buf, device_interface); });
}

}  // extern "C"
