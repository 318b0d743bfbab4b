// The span list behind stream order (streams/spans.h).
#include "streams/spans.h"

#include <algorithm>

#include "streams/events.h"

namespace harena::detail {

// A new region has no history.
void follow_region(StreamArena arena) {
    StreamOrder &o = arena.order;
    if (o.generation != arena.core.generation) {
        o.spans.clear();
        o.touched = 0;
        o.generation = arena.core.generation;
    }
    o.touched = std::max(o.touched, arena.core.high_water.load(std::memory_order_relaxed));
}

void publish_floor(StreamArena arena) {
    uint64_t floor = ~uint64_t(0);
    for (const StreamSpan &s : arena.order.spans) {
        floor = std::min(floor, s.begin);
    }
    arena.core.alloc_limit.store(std::min(floor, arena.core.capacity), std::memory_order_release);
}

// The parts of [begin, end) that no span covers, in order.
std::vector<std::pair<uint64_t, uint64_t>> gaps(const std::vector<StreamSpan> &spans, uint64_t begin, uint64_t end) {
    std::vector<std::pair<uint64_t, uint64_t>> covered, result;
    for (const StreamSpan &s : spans) {
        if (overlaps(s, begin, end)) {
            covered.emplace_back(std::max(s.begin, begin), std::min(s.end, end));
        }
    }
    std::sort(covered.begin(), covered.end());
    uint64_t at = begin;
    for (const auto &[b, e] : covered) {
        if (b > at) {
            result.emplace_back(at, b);
        }
        at = std::max(at, e);
    }
    if (at < end) {
        result.emplace_back(at, end);
    }
    return result;
}

int take_event(StreamOrder &o, const StreamEventBackend &b, void *context, void **event) {
    for (size_t i = 0; i < o.free_events.size(); i++) {
        if (o.free_events[i].context == context) {
            *event = o.free_events[i].event;
            o.free_events.erase(o.free_events.begin() + i);
            return 0;
        }
    }
    return b.event_create(context, event);
}

void give_event(StreamOrder &o, void *context, void *event) {
    o.free_events.push_back(PooledEvent{context, event});
}

// Retired streams' events that no span refers to any more go back to the pool.
void recycle_events(StreamOrder &o, const std::vector<Source> &released) {
    for (const Source &r : released) {
        const bool used = std::any_of(o.spans.begin(), o.spans.end(), [&](const StreamSpan &s) { return s.event == r.event; });
        if (r.event != nullptr && !used) {
            give_event(o, r.event_context, r.event);
        }
    }
}

// Spans of the home stream that no other span overlaps say what the lack of
// a span says; merged spans keep the list short.
void tidy(StreamArena arena) {
    std::vector<StreamSpan> &spans = arena.order.spans;
    std::vector<StreamSpan> kept;
    for (const StreamSpan &s : spans) {
        const bool alone = std::none_of(spans.begin(), spans.end(), [&](const StreamSpan &t) {
            return &t != &s && overlaps(t, s.begin, s.end) && (t.stream != s.stream || t.event != s.event);
        });
        if (!(s.event == nullptr && s.stream == arena.core.home_stream && alone)) {
            kept.push_back(s);
        }
    }
    std::sort(kept.begin(), kept.end(), [](const StreamSpan &a, const StreamSpan &b) { return a.begin < b.begin; });
    spans.clear();
    for (const StreamSpan &s : kept) {
        auto same = std::find_if(spans.rbegin(), spans.rend(), [&](const StreamSpan &t) {
            return t.stream == s.stream && t.event == s.event && t.end >= s.begin;
        });
        if (same != spans.rend()) {
            same->end = std::max(same->end, s.end);
        } else {
            spans.push_back(s);
        }
    }
    publish_floor(arena);
}

// [begin, end) is in use: no span describes it.
void clip(StreamOrder &o, uint64_t begin, uint64_t end) {
    std::vector<StreamSpan> kept;
    std::vector<Source> released;
    for (const StreamSpan &s : o.spans) {
        if (!overlaps(s, begin, end)) {
            kept.push_back(s);
            continue;
        }
        if (s.begin < begin) {
            kept.push_back(StreamSpan{s.begin, begin, s.stream, s.event, s.event_context});
        }
        if (s.end > end) {
            kept.push_back(StreamSpan{end, s.end, s.stream, s.event, s.event_context});
        }
        released.push_back(Source{s.stream, s.event, s.event_context});
    }
    o.spans = std::move(kept);
    recycle_events(o, released);
}

// The free bytes no span covers below the highest offset used, last used on
// the home stream, get a span of it: the home is about to change.
void label_home_bytes(StreamArena arena) {
    StreamOrder &o = arena.order;
    const uint64_t top = top_of(arena.core);
    if (arena.core.home_stream == kNoStream || top >= o.touched) {
        return;
    }
    for (const auto &[b, e] : gaps(o.spans, top, o.touched)) {
        o.spans.push_back(StreamSpan{b, e, arena.core.home_stream, nullptr, nullptr});
    }
}

}  // namespace harena::detail
