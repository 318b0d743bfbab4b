#include "runtime_model.h"

#include <algorithm>

#include "harena/runtime.h"

namespace harena_fuzz {

namespace {

// v rounded up to a multiple of a, exactly; UINT64_MAX where that does not fit.
uint64_t round_up(uint64_t v, uint64_t a) {
    const unsigned __int128 r = (static_cast<unsigned __int128>(v) + a - 1) / a * a;
    return r > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(r);
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

}  // namespace

uint64_t ArenaModel::aligned_size(uint64_t bytes) const {
    return bytes == 0 ? alignment : round_up(bytes, alignment);
}

Expect ArenaModel::push(uint64_t reserve, int scope) {
    moved = false;
    const uint64_t reserved = round_up(reserve, alignment);
    // A growing arena makes room before a frame opens on an idle stack: twice
    // the capacity, or what this frame or an earlier overflow needs if more;
    // not for a frame no arena can hold.
    if (grow && owns && idle() && reserve <= kMaxCapacity) {
        const uint64_t needed = std::max(reserved, wanted);
        if (needed > capacity) {
            const uint64_t doubled = capacity <= kMaxCapacity / 2 ? 2 * capacity : kMaxCapacity;
            capacity = std::min(std::max(doubled, round_up(needed, alignment)), kMaxCapacity);
            wanted = 0;
            grows++;
            moved = true;
        }
    }
    if (frames.size() == max_frames) {
        return {HARENA_ERROR_FRAME_STACK_FULL, 1, 0};
    }
    if (reserved > capacity - top) {
        overflows++;
        return {HARENA_ERROR_OVERFLOW, 1, 0};
    }
    frames.push_back(ModelFrame{next_frame_id++, top, reserved, scope});
    top += reserved;
    frames_pushed++;
    max_depth = std::max<uint32_t>(max_depth, static_cast<uint32_t>(frames.size()));
    high_water = std::max(high_water, top);
    return {};
}

Expect ArenaModel::pop(uint64_t frame_id) {
    if (frames.empty()) {
        return {HARENA_ERROR_FRAME_STACK_EMPTY, 1, 0};
    }
    if (frames.back().id != frame_id) {
        return {HARENA_ERROR_FRAME_NOT_TOP, 1, 0};
    }
    return pop_top();
}

Expect ArenaModel::pop_top() {
    const ModelFrame frame = frames.back();
    const auto in_frame = [&](const ModelAllocation &a) { return a.offset >= frame.offset; };
    const int still_live = static_cast<int>(std::count_if(live.begin(), live.end(), in_frame));
    live.erase(std::remove_if(live.begin(), live.end(), in_frame), live.end());
    top = frame.offset;
    frames.pop_back();
    // Debug mode reports each allocation the pop finds alive, and pops anyway.
    if (debug && still_live > 0) {
        return {HARENA_ERROR_ALIVE_AT_POP, still_live, 0};
    }
    return {};
}

Expect ArenaModel::alloc(uint64_t bytes, uint64_t *offset) {
    if (frames.empty()) {
        return {HARENA_ERROR_NO_FRAME, 1, 0};
    }
    const uint64_t size = aligned_size(bytes);
    if (size > capacity - top) {
        return overflow(size);
    }
    *offset = top;
    live.push_back(ModelAllocation{top, size, bytes, 0});
    top += size;
    allocations++;
    high_water = std::max(high_water, top);
    return {};
}

Expect ArenaModel::overflow(uint64_t size) {
    overflows++;
    // The next push on an idle stack grows the arena to hold this request,
    // unless no arena could.
    if (grow && saturating_add(top, size) <= kMaxCapacity) {
        wanted = std::max(wanted, top + size);
    }
    if (fallback) {
        // Quiet: the caller allocates elsewhere; noticed once per arena.
        fallbacks++;
        const int notices = fallback_noticed ? 0 : 1;
        fallback_noticed = true;
        return {HARENA_ERROR_OVERFLOW, 0, notices};
    }
    return {HARENA_ERROR_OVERFLOW, 1, 0};
}

Expect ArenaModel::free_live(size_t which) {
    const ModelAllocation a = live[which];
    live.erase(live.begin() + static_cast<std::ptrdiff_t>(which));
    // Only the most recent allocation of the top frame comes back at once;
    // anything below the top frame's own bytes waits for its frame's pop.
    const ModelFrame &frame = frames.back();
    if (a.offset >= frame.offset + frame.reserved && a.offset + a.size == top) {
        top = a.offset;
        reclaimed++;
    }
    return {};
}

bool ArenaModel::refused_free(uint64_t offset, uint64_t bytes) const {
    if (!frames.empty() && offset >= frames.back().offset && offset < frames.back().offset + frames.back().reserved) {
        return false;
    }
    return bytes > capacity || offset >= top || offset % alignment != 0 || aligned_size(bytes) > top - offset;
}

Expect ArenaModel::shrink_to_fit() {
    moved = false;
    if (!owns) {
        return {HARENA_ERROR_INVALID_ARGUMENT, 1, 0};
    }
    if (!idle()) {
        return {HARENA_ERROR_ARENA_IN_USE, 1, 0};
    }
    const uint64_t fit = std::max(round_up(high_water, alignment), alignment);
    if (fit < capacity) {
        capacity = fit;
        moved = true;
    }
    return {};
}

void ArenaModel::reset_stats() {
    high_water = top;
    allocations = reclaimed = frames_pushed = overflows = fallbacks = grows = 0;
    max_depth = static_cast<uint32_t>(frames.size());
}

}  // namespace harena_fuzz
