// The slow paths of stream order (streams/state.h): spans of free bytes
// labelled with the stream that last used them, crossings that make a
// stream wait on an event recorded on another, and retired streams.
#include "streams/state.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "cuda/stream_context.h"
#include "streams/events.h"
#include "streams/spans.h"

namespace harena::detail {

namespace {

// Where [begin, end) was last used other than on `stream`.
std::vector<Source> sources_of(StreamArena arena, uint64_t begin, uint64_t end, void *stream) {
    const StreamOrder &o = arena.order;
    std::vector<Source> sources;
    auto add = [&](const Source &s) {
        const bool known = std::any_of(sources.begin(), sources.end(), [&](const Source &t) {
            return s.event != nullptr ? t.event == s.event : t.event == nullptr && t.stream == s.stream;
        });
        if (!known) {
            sources.push_back(s);
        }
    };
    for (const StreamSpan &s : o.spans) {
        if (overlaps(s, begin, end) && (s.event != nullptr || s.stream != stream)) {
            add(Source{s.stream, s.event, s.event_context});
        }
    }
    if (arena.core.home_stream != stream && arena.core.home_stream != kNoStream && begin < o.touched &&
        !gaps(o.spans, begin, std::min(end, o.touched)).empty()) {
        add(Source{arena.core.home_stream, nullptr, nullptr});
    }
    return sources;
}

[[gnu::cold]] int no_backend(StreamArena arena, void *from, void *to, const char *function) {
    return report_error(arena.core.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: bytes of arena %p last used on stream %p are about to be used on stream %p, and no "
                        "CUDA driver with event functions is loaded to order the two; use one stream per arena "
                        "where there is no driver",
                        function, static_cast<const void *>(&arena.core), from, to);
}

// A record or wait failed (a stream destroyed before it was retired, for
// one): waiting for the whole context still orders the bytes.
[[gnu::cold]] int synchronize_instead(StreamArena arena, const StreamEventBackend &b, void *context, int err,
                                      const Source &from, void *to, const char *function) {
    const int sync = context != nullptr ? b.synchronize(context) : err;
    if (sync == 0) {
        report_notice(arena.core.user_context,
                      "%s: ordering stream %p after stream %p through an event failed with CUDA error %d; waited "
                      "for the whole context instead (retire a stream with harena_retire_stream before destroying "
                      "it)",
                      function, to, from.stream, err);
        return HARENA_OK;
    }
    return report_error(arena.core.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: cannot order stream %p after stream %p on arena %p: CUDA error %d, and %d waiting for "
                        "the context",
                        function, to, from.stream, static_cast<void *>(&arena.core), err, sync);
}

// `to` waits for `from`'s work so far: its retired event, or an event
// recorded on it now, from the pool and back in it once the wait is queued
// (a wait holds the record it saw).
int cross(StreamArena arena, const Source &from, void *to, const char *function) {
    StreamOrder &o = arena.order;
    const StreamEventBackend *b = stream_event_backend();
    if (b == nullptr) {
        return no_backend(arena, from.stream, to, function);
    }
    void *to_context = nullptr;
    if (int err = b->context_of(to, &to_context)) {
        return synchronize_instead(arena, *b, nullptr, err, from, to, function);
    }
    void *event = from.event;
    void *context = from.event_context;
    if (event == nullptr) {
        int err = b->context_of(from.stream, &context);
        if (err == 0 && (err = take_event(o, *b, context, &event)) == 0) {
            if ((err = b->record(context, event, from.stream)) != 0) {
                give_event(o, context, event);
            }
        }
        if (err != 0) {
            return synchronize_instead(arena, *b, to_context, err, from, to, function);
        }
        o.records.fetch_add(1, std::memory_order_relaxed);
    }
    const int err = b->wait(to_context, to, event);
    if (from.event == nullptr) {
        give_event(o, context, event);
    }
    if (err != 0) {
        return synchronize_instead(arena, *b, to_context, err, from, to, function);
    }
    o.waits.fetch_add(1, std::memory_order_relaxed);
    o.crossings.fetch_add(1, std::memory_order_relaxed);
    return HARENA_OK;
}

// After `to` waited for `from`, every free byte last used on `from` may be
// used on `to` without another wait.
void relabel(StreamOrder &o, const Source &from, void *to) {
    for (StreamSpan &s : o.spans) {
        if (from.event != nullptr ? s.event == from.event : s.event == nullptr && s.stream == from.stream) {
            s.stream = to;
            s.event = nullptr;
            s.event_context = nullptr;
        }
    }
    recycle_events(o, {from});
}

void change_home(StreamArena arena, void *home) {
    if (arena.core.home_stream != home) {
        label_home_bytes(arena);
        arena.core.home_stream = home;
        tidy(arena);
    }
}

}  // namespace

StreamOrder::~StreamOrder() {
    const StreamEventBackend *b = stream_event_backend();
    if (b == nullptr) {
        return;
    }
    for (const PooledEvent &e : free_events) {
        b->event_destroy(e.context, e.event);
    }
    std::vector<void *> destroyed;
    for (const StreamSpan &s : spans) {
        if (s.event != nullptr && std::find(destroyed.begin(), destroyed.end(), s.event) == destroyed.end()) {
            b->event_destroy(s.event_context, s.event);
            destroyed.push_back(s.event);
        }
    }
}

StreamCounts StreamOrder::counts() const {
    return StreamCounts{crossings.load(std::memory_order_relaxed), records.load(std::memory_order_relaxed),
                        waits.load(std::memory_order_relaxed)};
}

void StreamOrder::reset_counts() {
    crossings.store(0, std::memory_order_relaxed);
    records.store(0, std::memory_order_relaxed);
    waits.store(0, std::memory_order_relaxed);
}

int stream_take(StreamArena arena, uint64_t begin, uint64_t end, void *stream, const char *function) {
    StreamOrder &o = arena.order;
    follow_region(arena);
    const std::vector<Source> sources = sources_of(arena, begin, end, stream);
    // As RMM merges a stream's free list into the one that waited for it,
    // every free byte the last user left goes over with the crossing: the
    // home's too, which get spans first.
    if (std::any_of(sources.begin(), sources.end(),
                    [&](const Source &s) { return s.event == nullptr && s.stream == arena.core.home_stream; })) {
        label_home_bytes(arena);
    }
    int result = HARENA_OK;
    if (!sources.empty()) {
        // The binding's context is current for the null stream's sake.
        StreamContextScope in_context(arena.cuda);
        for (const Source &from : sources) {
            const int err = cross(arena, from, stream, function);
            if (err == HARENA_OK) {
                relabel(o, from, stream);
            } else if (result == HARENA_OK) {
                result = err;
            }
        }
    }
    clip(o, begin, end);
    tidy(arena);
    return result;
}

int stream_push(StreamArena arena, void *stream, uint64_t reserved_end, const char *function) {
    std::lock_guard<std::mutex> lock(arena.order.mutex);
    follow_region(arena);
    void *previous = arena.core.home_stream;
    change_home(arena, stream);
    const uint64_t top = top_of(arena.core);
    if (reserved_end > top) {
        if (int err = stream_take(arena, top, reserved_end, stream, function)) {
            change_home(arena, previous);
            return err;
        }
    }
    return HARENA_OK;
}

void stream_pop(StreamArena arena, const Frame &frame, uint64_t old_top, void *next) {
    StreamOrder &o = arena.order;
    std::lock_guard<std::mutex> lock(o.mutex);
    follow_region(arena);
    bool labelled = false;
    for (auto it = o.frame_streams.begin(); it != o.frame_streams.end();) {
        if (it->first != frame.id) {
            ++it;
            continue;
        }
        if (old_top > frame.offset) {
            o.spans.push_back(StreamSpan{frame.offset, old_top, it->second, nullptr, nullptr});
            labelled = true;
        }
        it = o.frame_streams.erase(it);
    }
    // A span over the frame's bytes replaces what the lack of one said.
    if (labelled && arena.core.home_stream != kNoStream) {
        o.spans.push_back(StreamSpan{frame.offset, old_top, arena.core.home_stream, nullptr, nullptr});
    }
    change_home(arena, next);
    tidy(arena);
}

void stream_note_frame_use(StreamArena arena, void *stream) {
    const uint32_t depth = arena.core.depth.load(std::memory_order_relaxed);
    if (depth == 0) {
        return;
    }
    Frame &frame = arena.core.frames[depth - 1];
    frame.streams |= kOtherStreamUsed;
    auto &uses = arena.order.frame_streams;
    if (std::find(uses.begin(), uses.end(), std::make_pair(frame.id, stream)) == uses.end()) {
        uses.emplace_back(frame.id, stream);
    }
}

void stream_label_free(StreamArena arena, uint64_t begin, uint64_t end, void *stream) {
    follow_region(arena);
    arena.order.spans.push_back(StreamSpan{begin, end, stream, nullptr, nullptr});
    publish_floor(arena);
}

namespace {

// Why `stream` cannot be retired yet, or an empty string. Frames' streams
// from the top down: the home, then the home before each frame that
// changed it.
std::string still_used(StreamArena arena, void *stream) {
    const auto &uses = arena.order.frame_streams;
    void *own = arena.core.home_stream;
    for (uint32_t i = arena.core.depth.load(std::memory_order_relaxed); i-- > 0;) {
        const Frame &f = arena.core.frames[i];
        if (own == stream || std::find(uses.begin(), uses.end(), std::make_pair(f.id, stream)) != uses.end()) {
            return "frame #" + std::to_string(f.id) + " uses it";
        }
        own = (f.streams & kAboveOtherStream) != 0 ? arena.core.home_before[i] : own;
    }
    return std::string();
}

}  // namespace

int stream_retire(StreamArena arena, void *stream, const char *function) {
    StreamOrder &o = arena.order;
    std::lock_guard<std::mutex> lock(o.mutex);
    const std::string why = still_used(arena, stream);
    if (!why.empty()) {
        return report_error(arena.core.user_context, HARENA_ERROR_ARENA_IN_USE,
                            "%s: stream %p cannot be retired from arena %p: %s; pop the frames that use it first",
                            function, stream, static_cast<void *>(&arena.core), why.c_str());
    }
    follow_region(arena);
    if (arena.core.home_stream == stream) {
        label_home_bytes(arena);
        arena.core.home_stream = kNoStream;
    }
    const bool labelled = std::any_of(o.spans.begin(), o.spans.end(),
                                      [&](const StreamSpan &s) { return s.event == nullptr && s.stream == stream; });
    if (!labelled) {
        tidy(arena);
        return HARENA_OK;
    }
    const StreamEventBackend *b = stream_event_backend();
    if (b == nullptr) {
        return no_backend(arena, stream, nullptr, function);
    }
    StreamContextScope in_context(arena.cuda);
    void *context = nullptr;
    void *event = nullptr;
    int err = b->context_of(stream, &context);
    if (err == 0 && (err = take_event(o, *b, context, &event)) == 0 && (err = b->record(context, event, stream)) != 0) {
        give_event(o, context, event);
    }
    if (err != 0) {
        // The stream's bytes are ordered once the context is idle.
        err = synchronize_instead(arena, *b, context, err, Source{stream, nullptr, nullptr}, nullptr, function);
        o.spans.erase(std::remove_if(o.spans.begin(), o.spans.end(),
                                     [&](const StreamSpan &s) { return s.event == nullptr && s.stream == stream; }),
                      o.spans.end());
        tidy(arena);
        return err;
    }
    o.records.fetch_add(1, std::memory_order_relaxed);
    for (StreamSpan &s : o.spans) {
        if (s.event == nullptr && s.stream == stream) {
            s.event = event;
            s.event_context = context;
        }
    }
    tidy(arena);
    return HARENA_OK;
}

void stream_unlabel_free(StreamArena arena, uint64_t begin, uint64_t end, void *stream) {
    auto &spans = arena.order.spans;
    auto it = std::find_if(spans.rbegin(), spans.rend(), [&](const StreamSpan &s) {
        return s.begin == begin && s.end == end && s.stream == stream && s.event == nullptr;
    });
    if (it != spans.rend()) {
        spans.erase(std::next(it).base());
    }
    tidy(arena);
}

}  // namespace harena::detail
