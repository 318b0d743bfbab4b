// Free inside the top frame: the newest allocation's bytes come back at once
// (a compare-and-swap on the state word); any other free is checked against
// the top of the stack, and in debug and guard modes against the record.
#include <cstdio>
#include <mutex>
#include <string>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

[[gnu::cold, gnu::noinline]] int invalid_free(harena_arena &arena, const char *function, uint64_t address,
                                              uint64_t bytes, const std::string &why) {
    return report_error(arena.user_context, HARENA_ERROR_INVALID_FREE,
                        "%s: 0x%llx (%s) is not a live allocation of arena %p: %s; nothing was freed. Free each "
                        "allocation once, with the address and size it was allocated with (HARENA_DEBUG=1 checks "
                        "every free against a record of the allocations)",
                        function, static_cast<unsigned long long>(address), bytes_text(bytes).text,
                        static_cast<void *>(&arena), why.c_str());
}

std::string hex(uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof(text), "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

// What the top of the stack tells about a free of [begin, begin + size)
// (offsets), without a record: nothing is allocated at or above the top; a
// slice ends at or below it and starts at a multiple of the alignment; and
// while `newest` still describes the state (its counts match), the newest
// slice is exactly [newest, top). False when the free cannot be valid.
inline bool top_allows(const harena_arena &arena, uint64_t state, uint64_t begin, uint64_t size) {
    const uint64_t top = offset_of(state);
    if (begin >= top || (begin & (arena.alignment - 1)) != 0 || size > top - begin) {
        return false;
    }
    const uint64_t newest = arena.newest.load(std::memory_order_relaxed);
    if (((newest ^ state) & ~kOffsetMask) != 0) {
        return true;
    }
    const uint64_t newest_begin = offset_of(newest);
    return begin < newest_begin ? begin + size <= newest_begin : begin == newest_begin && begin + size == top;
}

// Why top_allows refused.
[[gnu::cold, gnu::noinline]] std::string top_mismatch(const harena_arena &arena, uint64_t state, uint64_t begin,
                                                      uint64_t size) {
    const uint64_t top = offset_of(state);
    if (begin >= top) {
        return "nothing is allocated at or above " + hex(arena.base + top) + ", the top of the stack";
    }
    if ((begin & (arena.alignment - 1)) != 0) {
        return "no allocation starts there: allocations start at multiples of the alignment (" +
               std::to_string(arena.alignment) + ") from the base " + hex(arena.base);
    }
    if (size > top - begin) {
        return "it reaches past " + hex(arena.base + top) + ", the top of the stack";
    }
    const uint64_t newest = arena.newest.load(std::memory_order_relaxed);
    return "the newest allocation is [" + hex(arena.base + offset_of(newest)) + ", " + hex(arena.base + top) + ")";
}

// Debug and guard modes: the free must match a recorded allocation (or lie
// in a frame's reservation, which the pusher places in itself).
[[gnu::cold, gnu::noinline]] std::string record_mismatch(harena_arena &arena, uint64_t begin, uint64_t size) {
    bool found = false;
    std::string why = checking->free_mismatch(arena, begin, size, &found);
    if (found) {
        return why;
    }
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < depth; i++) {
        const Frame &f = arena.frames[i];
        if (begin >= f.offset && begin < f.offset + f.reserved) {
            return std::string();
        }
    }
    return why;
}

// A slice of a watched arena comes back: it ends for the checker whether or
// not its bytes come back now, and its band is checked.
[[gnu::cold, gnu::noinline]] int watched_release(harena_arena &arena, uint64_t address) {
    return checking->released(arena, address);
}

// Moves the top back to begin while the slice [begin, top) is still the
// newest one: a failed exchange may come from a free elsewhere that did not
// move it. Release: the bytes' next owner (acquire in bump) sees this
// thread's writes to them.
int reclaim(harena_arena &arena, uint64_t state, uint64_t begin, uint64_t end, int result) {
    while (offset_of(state) == end) {
        const uint64_t next = with_one_more_reclaim(with_offset(state, begin));
        if (arena.state.compare_exchange_weak(state, next, std::memory_order_release, std::memory_order_relaxed)) {
            if ((next & kReclaimMask) == 0) {
                arena.reclaim_wraps.fetch_add(1, std::memory_order_relaxed);
            }
            return result;
        }
    }
    return result;
}

// Every free but the plain one of the newest allocation: the checks of
// top_allows and the record, the watched modes, frees whose bytes come back
// at the pop.
[[gnu::noinline]] int release_checked(harena_arena &arena, uint64_t address, uint64_t bytes, const char *function) {
    // The refusals' messages and the records are host memory.
    return guarded(arena.user_context, function, [&]() -> int {
        const uint64_t begin = address - arena.base;
        const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
        // Bytes in the top frame's reservation come back when it pops.
        if (depth != 0) {
            const Frame &frame = arena.frames[depth - 1];
            if (begin >= frame.offset && begin < frame.offset + frame.reserved) {
                return HARENA_OK;
            }
        }
        if (bytes > arena.capacity) {
            return invalid_free(arena, function, address, bytes, "it is larger than the arena");
        }
        const uint64_t size = allocation_size(arena, bytes);
        const uint64_t state = arena.state.load(std::memory_order_relaxed);
        if (!top_allows(arena, state, begin, size)) {
            return invalid_free(arena, function, address, bytes, top_mismatch(arena, state, begin, size));
        }
        if (arena.watched) {
            const std::string why = record_mismatch(arena, begin, size);
            if (!why.empty()) {
                return invalid_free(arena, function, address, bytes, why);
            }
        }
        const int result = arena.watched ? watched_release(arena, address) : HARENA_OK;
        // Bytes below the top frame's start come back when their own frame pops.
        if (depth == 0 || begin < arena.frames[depth - 1].offset) {
            return result;
        }
        return reclaim(arena, state, begin, begin + size, result);
    });
}

}  // namespace

int release(harena_arena &arena, uint64_t address, uint64_t bytes, const char *function) {
    // The usual frees of an unwatched arena need no record: the newest
    // allocation's bytes come back now, and those of an older slice of the
    // top frame (past its reservation) when the frame pops. The top of the
    // stack vouches for both (top_allows).
    const uint64_t begin = address - arena.base;
    const uint64_t state = arena.state.load(std::memory_order_relaxed);
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (!arena.watched && depth != 0 && bytes <= arena.capacity) {
        const Frame &frame = arena.frames[depth - 1];
        const uint64_t size = allocation_size(arena, bytes);
        if (begin >= frame.offset + frame.reserved && top_allows(arena, state, begin, size)) {
            return reclaim(arena, state, begin, begin + size, HARENA_OK);
        }
    }
    return release_checked(arena, address, bytes, function);
}

int release_on(harena_arena &arena, uint64_t address, uint64_t bytes, void *stream, const char *function) {
    if (stream == arena.home_stream || bytes > arena.capacity) {
        return release(arena, address, bytes, function);
    }
    if (arena.streams_state == nullptr) {
        if (int err = change_single_stream(arena, stream, function)) {
            return err;
        }
        return release(arena, address, bytes, function);
    }
    // Labelled before the bytes come back, so that no allocation takes them
    // without seeing the label; unlabelled again when they did not.
    StreamOrderLock lock(arena);
    stream_order->note_frame_use(arena, stream);
    const uint64_t begin = address - arena.base;
    const uint64_t end = begin + allocation_size(arena, bytes);
    stream_order->label_free(arena, begin, end, stream);
    const int result = release(arena, address, bytes, function);
    if (result != HARENA_OK || top_of(arena) > begin) {
        stream_order->unlabel_free(arena, begin, end, stream);
    }
    return result;
}

}  // namespace harena::detail

using namespace harena::detail;

namespace {

[[gnu::cold, gnu::noinline]] int free_checked(harena_arena *arena, uint64_t address, uint64_t bytes) {
    if (int err = check_live(arena, "harena_free", nullptr)) {
        return err;
    }
    if (!contains(*arena, address)) {
        return report_error(arena->user_context, HARENA_ERROR_NOT_IN_ARENA,
                            "harena_free: address 0x%llx is not in arena %p [0x%llx, 0x%llx)",
                            static_cast<unsigned long long>(address), static_cast<void *>(arena),
                            static_cast<unsigned long long>(arena->base),
                            static_cast<unsigned long long>(arena->base + arena->capacity));
    }
    return release(*arena, address, bytes, "harena_free");
}

}  // namespace

extern "C" {

int harena_free_on_stream(harena_arena *arena, uint64_t address, uint64_t bytes, void *stream) {
    const char *function = "harena_free_on_stream";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (!contains(*arena, address)) {
        return free_checked(arena, address, bytes);
    }
    if (int err = check_stream(*arena, stream, function)) {
        return err;
    }
    return release_on(*arena, address, bytes, stream, function);
}

int harena_free(harena_arena *arena, uint64_t address, uint64_t bytes) {
    if (!known_live(arena) || !contains(*arena, address)) {
        return free_checked(arena, address, bytes);
    }
    return release(*arena, address, bytes, "harena_free");
}

}  // extern "C"
