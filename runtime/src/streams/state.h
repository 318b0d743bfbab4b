// Stream order: which stream last used the free bytes above an arena's top,
// so that bytes about to be used on another stream first make that stream
// wait on an event recorded on the last one (one record and one wait per
// crossing), and bytes reused on the same stream cost nothing.
//
// Free bytes below the highest offset ever used that no span covers were
// last used on the home stream, the stream of the top frame. A span labels
// free bytes that were last used elsewhere: freed on another stream, popped
// from a frame another stream also used, or left by an earlier home. Spans
// lie at or above the top, and the arena's alloc_limit is the lowest span's
// start where that is below the capacity: an allocation that ends at or
// below it (the same-stream case) needs no lock and no look at the spans. The event is recorded when bytes
// cross, not when they are freed, so a free or pop on a stream costs
// nothing; the price is that a stream must outlive its spans, or be retired
// (harena_retire_stream), which records its event at once. The slow paths
// run under `mutex`.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/arena_core.h"
#include "cuda/state.h"

namespace harena::detail {

// The home stream once it was retired: no free byte waits for it.
inline void *const kNoStream = reinterpret_cast<void *>(~uintptr_t(0));

// Free bytes [begin, end), last used on `stream`; or, where `event` is set,
// on a retired stream whose work up to its retirement the event marks.
struct StreamSpan {
    uint64_t begin;
    uint64_t end;
    void *stream;
    void *event;
    void *event_context;
};

struct PooledEvent {
    void *context;
    void *event;
};

struct StreamCounts {
    uint64_t crossings = 0;  // bytes taken on one stream after another's use
    uint64_t records = 0;    // events recorded (crossings and retirements)
    uint64_t waits = 0;      // stream waits
};

// The state behind the slow paths (streams/order.cpp), under `mutex` there.
struct StreamOrder {
    StreamOrder() = default;
    ~StreamOrder();  // destroys the events
    StreamOrder(const StreamOrder &) = delete;
    StreamOrder &operator=(const StreamOrder &) = delete;

    [[nodiscard]] StreamCounts counts() const;
    void reset_counts();

    std::mutex mutex;
    uint64_t generation = 0;  // of the region the spans describe
    uint64_t touched = 0;     // highest offset ever used in that region
    std::vector<StreamSpan> spans;
    // Streams other than their frame's that allocated or freed in a frame
    // (frame id, stream): the frame's bytes were last used on them too.
    std::vector<std::pair<uint64_t, void *>> frame_streams;
    std::vector<PooledEvent> free_events;
    std::atomic<uint64_t> crossings{0};
    std::atomic<uint64_t> records{0};
    std::atomic<uint64_t> waits{0};
};

// What stream order works on: the arena's core (its top, frames and home
// stream), its stream order, and its CUDA binding, whose context crossings
// record and wait in (streams/abi.cpp makes it: streams_of).
struct StreamArena {
    ArenaCore &core;
    StreamOrder &order;
    const CudaBinding &cuda;
};

// The slow paths. Each returns HARENA_OK or an error it reported.
// A frame on `stream` is about to be pushed at the top, reserving
// [top, reserved_end): the home becomes `stream`, and the reserved bytes
// cross to it. Not concurrent with allocations.
int stream_push(StreamArena arena, void *stream, uint64_t reserved_end, const char *function);
// `frame` popped, its bytes up to `old_top` free again; `next` is the
// stream of the new top frame (the home when none is left). Not concurrent
// with allocations.
void stream_pop(StreamArena arena, const Frame &frame, uint64_t old_top, void *next);
// With the mutex held: bytes [begin, end) were taken for `stream`; makes it
// wait for their last users.
int stream_take(StreamArena arena, uint64_t begin, uint64_t end, void *stream, const char *function);
// With the mutex held: `stream` (not the top frame's) allocated or freed in
// the top frame.
void stream_note_frame_use(StreamArena arena, void *stream);
// With the mutex held: the free of [begin, end) on `stream` may reclaim it
// at once; labels it before the bytes come back. stream_unlabel_free undoes it
// when they did not.
void stream_label_free(StreamArena arena, uint64_t begin, uint64_t end, void *stream);
void stream_unlabel_free(StreamArena arena, uint64_t begin, uint64_t end, void *stream);
// harena_retire_stream after its checks of the arena.
int stream_retire(StreamArena arena, void *stream, const char *function);

}  // namespace harena::detail
