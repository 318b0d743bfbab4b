// The frame stack: push reserves from the top, pop returns the top to where
// the frame began. Not concurrent with allocations in the same arena.
#include <string>

#include "core/arena.h"
#include "core/errors.h"
#include "harena/guard_layout.h"

namespace harena::detail {

namespace {

// Moves each buffer that still holds a slice of the popping frame (addresses
// from `frame_base` on) out of the arena (slices/state.h), and counts it.
void evict_live_slices(harena_arena &arena, uint64_t frame_id, uint64_t frame_base) {
    if (arena.slices.empty()) {
        return;
    }
    SuspendScopes suspend;
    arena.slices.drain(frame_base, [&](halide_buffer_t *buf, uint64_t address) {
        if (arena.watched) {
            checking->evicted(arena, address - arena.base);
        }
        // A buffer detached by other means no longer holds the slice.
        if (buf->device == address && buf->device_interface == arena.device_interface) {
            uint64_t bytes = 0;
            if (evict_buffer(arena.user_context, arena.device_interface, frame_id, buf, address, &bytes) == HARENA_OK) {
                arena.stats.eviction(bytes);
            }
        }
    });
}

// Makes [offset, offset + lead + reserved + trail) the frame at `depth`, the
// new top; `streams`: its stream work at the pop (Frame::streams).
inline void place_frame(harena_arena &arena, uint32_t depth, uint64_t offset, uint64_t lead, uint64_t reserved,
                        uint64_t trail, bool pipeline, uint8_t streams, harena_frame *frame) {
    Frame &f = arena.frames[depth];
    f.id = arena.next_frame_id++;
    f.offset = offset;
    f.reserved = lead + reserved + trail;
    f.pipeline = pipeline;
    f.scope_owned = false;
    f.streams = streams;
    set_top(arena, offset + f.reserved);
    arena.depth.store(depth + 1, std::memory_order_relaxed);
    arena.stats.pushed(depth + 1);
    raise_high_water(arena, offset + f.reserved);
    if (frame != nullptr) {
        *frame = harena_frame{f.id, arena.base + offset + lead};
    }
}

}  // namespace

int push_frame_on(harena_arena &arena, uint64_t reserve_bytes, bool pipeline, void *stream, harena_frame *frame,
                  const char *function) {
    // Most pushes: nothing watches the arena (no bands, no checker heap),
    // it does not grow, the frame stays on the home stream, a frame is left
    // and its bytes end at or below the allocation limit, so they fit and
    // were last used on this stream.
    if (!arena.watched && !arena.grows && stream == arena.home_stream && reserve_bytes <= kMaxCapacity) {
        const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
        const uint64_t offset = top_of(arena);
        const uint64_t reserved = round_up(reserve_bytes, arena.alignment);
        if (depth < arena.frames.size() && offset + reserved <= arena.alloc_limit.load(std::memory_order_relaxed)) {
            place_frame(arena, depth, offset, 0, reserved, 0, pipeline, 0, frame);
            return HARENA_OK;
        }
    }
    const bool banded = arena.band_bytes != 0 && !pipeline;
    const uint64_t lead = banded ? guard_layout::first_slice_offset(arena.band_bytes) : 0;
    const uint64_t trail = banded && reserve_bytes != 0 ? arena.band_bytes : 0;
    // Bands are below 2^40; a reservation that large is refused below anyway.
    const uint64_t wanted = reserve_bytes < kMaxCapacity ? guard_layout::band_end(lead, reserve_bytes, trail) : reserve_bytes;
    make_room(arena, wanted, function);
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (depth == arena.frames.size()) {
        return report_error(arena.user_context, HARENA_ERROR_FRAME_STACK_FULL,
                            "%s: arena %p already holds %u frames (harena_options.max_frames); "
                            "a frame is probably not popped, or raise max_frames",
                            function, static_cast<void *>(&arena), depth);
    }
    const uint64_t offset = top_of(arena);
    const uint64_t left = arena.capacity - offset;
    if (wanted > left || round_up(wanted, arena.alignment) > left) {
        arena.stats.overflow();
        return report_error(arena.user_context, HARENA_ERROR_OVERFLOW,
                            "%s: cannot reserve %s: %s left of %s (%s in use by %u frame(s))", function,
                            bytes_text(wanted).text, bytes_text(left).text, bytes_text(arena.capacity).text,
                            bytes_text(offset).text, depth);
    }
    const uint64_t reserved = round_up(reserve_bytes, arena.alignment);
    // Bytes last used on another stream, or a frame on another stream than
    // the top's: the slow path orders them (core/streams.h).
    const uint64_t reserved_end = guard_layout::band_end(offset + lead, reserved, trail);
    void *previous_home = arena.home_stream;
    uint8_t streams = 0;
    if (stream != previous_home || reserved_end > arena.alloc_limit.load(std::memory_order_relaxed)) {
        // Without stream order the limit is the capacity, which the
        // reservation fits: only the stream changed.
        if (arena.streams_state == nullptr) {
            if (int err = change_single_stream(arena, stream, function)) {
                return err;
            }
        } else {
            if (int err = stream_order->push(arena, stream, reserved_end, function)) {
                return err;
            }
            if (stream != previous_home && depth != 0) {
                streams = kAboveOtherStream;
                arena.home_before[depth] = previous_home;
            }
        }
    }
    place_frame(arena, depth, offset, lead, reserved, trail, pipeline, streams, frame);
    if (arena.watched) {
        checking->pushed(arena, arena.frames[depth], lead, reserved, reserve_bytes, banded, function);
    }
    return HARENA_OK;
}

bool frame_is_buried(const harena_arena &arena, uint64_t frame_id) {
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i + 1 < depth; i++) {
        if (arena.frames[i].id == frame_id) {
            return true;
        }
    }
    return false;
}

int pop_frame(harena_arena &arena, uint64_t frame_id, bool pipeline_exit, const char *function) {
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (depth == 0) {
        return report_error(arena.user_context, HARENA_ERROR_FRAME_STACK_EMPTY,
                            "%s: arena %p has no frame to pop (frame #%llu was already popped or never pushed)",
                            function, static_cast<void *>(&arena), static_cast<unsigned long long>(frame_id));
    }
    const Frame &top = arena.frames[depth - 1];
    if (top.id != frame_id) {
        return report_error(arena.user_context, HARENA_ERROR_FRAME_NOT_TOP,
                            "%s: frame #%llu is not the top frame of arena %p (the top is #%llu at depth %u); "
                            "pop frames in the reverse order of their pushes",
                            function, static_cast<unsigned long long>(frame_id), static_cast<void *>(&arena),
                            static_cast<unsigned long long>(top.id), depth);
    }
    if (top.pipeline != pipeline_exit) {
        return report_error(arena.user_context, HARENA_ERROR_FRAME_NOT_TOP,
                            "%s: frame #%llu belongs to a planned pipeline that is still running; it pops when "
                            "the pipeline returns",
                            function, static_cast<unsigned long long>(frame_id));
    }
    // Bands are checked while the frame's bytes are still as the pipeline
    // left them. Buffers that outlive the frame leave it next, so that debug
    // mode reports only what nothing can move.
    const int guard = arena.watched ? checking->popping(arena, top) : HARENA_OK;
    evict_live_slices(arena, top.id, arena.base + top.offset);
    // After the moves, which read the slices.
    const int debug = arena.watched ? checking->popped(arena, top) : HARENA_OK;
    const int result = guard != HARENA_OK ? guard : debug;
    // Stream work at the pop: other streams used the frame, or the frame
    // below it runs on another stream (home_before); otherwise the frame's
    // bytes were last used on the home, as the lack of a span says.
    const uint8_t streams = top.streams;
    const uint64_t old_top = streams != 0 ? top_of(arena) : 0;
    set_top(arena, top.offset);
    arena.depth.store(depth - 1, std::memory_order_relaxed);
    if (streams != 0) {
        stream_order->pop(arena, top, old_top,
                          (streams & kAboveOtherStream) != 0 ? arena.home_before[depth - 1] : arena.home_stream);
    }
    return result;
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

int harena_push(harena_arena *arena, uint64_t reserve_bytes, harena_frame *frame) {
    if (int err = check_live(arena, "harena_push", nullptr)) {
        return err;
    }
    return push_frame(*arena, reserve_bytes, false, frame, "harena_push");
}

int harena_push_on_stream(harena_arena *arena, uint64_t reserve_bytes, void *stream, harena_frame *frame) {
    if (int err = check_live(arena, "harena_push_on_stream", nullptr)) {
        return err;
    }
    if (int err = check_stream(*arena, stream, "harena_push_on_stream")) {
        return err;
    }
    return push_frame_on(*arena, reserve_bytes, false, stream, frame, "harena_push_on_stream");
}

int harena_pop(harena_arena *arena, harena_frame frame) {
    if (int err = check_live(arena, "harena_pop", nullptr)) {
        return err;
    }
    // The scope is on its thread's chain until it ends: popping its frame
    // here would leave it there, pointing at an arena that may be destroyed.
    const uint32_t depth = arena->depth.load(std::memory_order_relaxed);
    if (depth != 0 && arena->frames[depth - 1].id == frame.id && arena->frames[depth - 1].scope_owned) {
        return report_error(arena->user_context, HARENA_ERROR_FRAME_NOT_TOP,
                            "harena_pop: frame #%llu of arena %p belongs to a scope; it pops when "
                            "harena_scope_end ends the scope",
                            static_cast<unsigned long long>(frame.id), static_cast<void *>(arena));
    }
    return pop_frame(*arena, frame.id, false, "harena_pop");
}

}  // extern "C"
