// The stream order feature's hooks (core/streams.h), over the slow paths of
// streams/order.cpp. Installed when this file is linked: HalideArena::streams
// (and the umbrella harena_runtime) name harena_streams_feature in their
// link options.
#include <algorithm>
#include <mutex>
#include <new>

#include "core/arena.h"
#include "core/streams.h"
#include "streams/state.h"

namespace harena::detail {

namespace {

StreamArena streams_of(harena_arena &arena) {
    return StreamArena{arena, *arena.streams_state, arena.cuda};
}

bool create(harena_arena &arena) {
    arena.streams_state = new (std::nothrow) StreamOrder;
    return arena.streams_state != nullptr;
}

void destroy(harena_arena &arena) {
    delete arena.streams_state;
    arena.streams_state = nullptr;
}

void lock(harena_arena &arena) {
    arena.streams_state->mutex.lock();
}

void unlock(harena_arena &arena) {
    arena.streams_state->mutex.unlock();
}

int push(harena_arena &arena, void *stream, uint64_t reserved_end, const char *function) {
    return stream_push(streams_of(arena), stream, reserved_end, function);
}

void pop(harena_arena &arena, const Frame &frame, uint64_t old_top, void *next) {
    stream_pop(streams_of(arena), frame, old_top, next);
}

int take(harena_arena &arena, uint64_t begin, uint64_t end, void *stream, const char *function) {
    return stream_take(streams_of(arena), begin, end, stream, function);
}

void note_frame_use(harena_arena &arena, void *stream) {
    stream_note_frame_use(streams_of(arena), stream);
}

void label_free(harena_arena &arena, uint64_t begin, uint64_t end, void *stream) {
    stream_label_free(streams_of(arena), begin, end, stream);
}

void unlabel_free(harena_arena &arena, uint64_t begin, uint64_t end, void *stream) {
    stream_unlabel_free(streams_of(arena), begin, end, stream);
}

int retire(harena_arena &arena, void *stream, const char *function) {
    return stream_retire(streams_of(arena), stream, function);
}

void read_stats(const harena_arena &arena, harena_stats *stats) {
    const StreamCounts counts = arena.streams_state->counts();
    stats->stream_crossings = counts.crossings;
    stats->stream_events_recorded = counts.records;
    stats->stream_waits = counts.waits;
}

void reset_stats(harena_arena &arena) {
    StreamOrder &order = *arena.streams_state;
    {
        // Stream order keeps the highest offset ever used, which the high
        // water forgets at a reset.
        std::lock_guard<std::mutex> held(order.mutex);
        order.touched = std::max(order.touched, arena.high_water.load(std::memory_order_relaxed));
    }
    order.reset_counts();
}

const StreamHooks kHooks = {create, destroy, lock, unlock, push, pop, take,
                            note_frame_use, label_free, unlabel_free, retire, read_stats, reset_stats};

[[maybe_unused]] const bool installed = (install_stream_order(&kHooks), true);

}  // namespace

}  // namespace harena::detail

// What the link options name, so that this file is linked.
extern "C" const void *const harena_streams_feature = &harena::detail::kHooks;
