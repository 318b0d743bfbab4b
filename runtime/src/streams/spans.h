// The span list behind stream order (streams/state.h): free bytes labelled
// with the stream that last used them, kept at or above the arena's top,
// and the pool of events. Every function runs with the stream order's mutex
// held, or while no allocation runs.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "streams/events.h"
#include "streams/state.h"

namespace harena::detail {

// Where a crossing's bytes were last used: a stream, or a retired stream's
// recorded event.
struct Source {
    void *stream;
    void *event;
    void *event_context;
};

inline bool overlaps(const StreamSpan &s, uint64_t begin, uint64_t end) {
    return s.begin < end && begin < s.end;
}

// Forgets the spans of a replaced region and raises the highest offset used.
void follow_region(StreamArena arena);
// The arena's alloc_limit from the spans and the capacity.
void publish_floor(StreamArena arena);
// The parts of [begin, end) that no span covers, in order.
std::vector<std::pair<uint64_t, uint64_t>> gaps(const std::vector<StreamSpan> &spans, uint64_t begin, uint64_t end);
// An event of `context` from the pool (made when there is none), and back.
int take_event(StreamOrder &o, const StreamEventBackend &b, void *context, void **event);
void give_event(StreamOrder &o, void *context, void *event);
// Retired streams' events among `released` that no span refers to any more
// go back to the pool.
void recycle_events(StreamOrder &o, const std::vector<Source> &released);
// Drops spans of the home stream that no other span overlaps (they say what
// the lack of a span says), merges neighbours, publishes the floor.
void tidy(StreamArena arena);
// [begin, end) is in use: no span describes it.
void clip(StreamOrder &o, uint64_t begin, uint64_t end);
// The home is about to change: the free bytes no span covers below the
// highest offset used, last used on the home stream, get a span of it.
void label_home_bytes(StreamArena arena);

}  // namespace harena::detail
