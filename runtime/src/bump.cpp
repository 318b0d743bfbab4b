// Allocation and free inside the top frame: a compare-and-swap on one word,
// so several threads allocate at once without a lock.
#include <cstdio>

#include "arena.h"
#include "errors.h"

namespace harena::detail {

namespace {

const char *type_code_name(uint8_t code) {
    switch (code) {
    case halide_type_int:
        return "int";
    case halide_type_uint:
        return "uint";
    case halide_type_float:
        return "float";
    case halide_type_handle:
        return "handle";
    case halide_type_bfloat:
        return "bfloat";
    default:
        return "type";
    }
}

// The failure and debug paths stay out of line so that the allocation path
// itself is a few instructions around one compare-and-swap.
[[gnu::cold, gnu::noinline]] int overflow(harena_arena &arena, uint64_t bytes, uint64_t size, uint64_t top,
                                          const AllocationName &name) {
    arena.overflows.fetch_add(1, std::memory_order_relaxed);
    // A request no arena can hold asks for no growth: the next frames would
    // try a region of the largest size, fail, and never grow again.
    if (arena.grow && size <= kMaxCapacity - top) {
        want(arena, top + size);
    }
    const uint64_t left = arena.capacity - top;
    const std::string what = name.known() ? " for " + name.text() : std::string();
    if (arena.overflow_policy == HARENA_OVERFLOW_FALLBACK) {
        arena.fallbacks.fetch_add(1, std::memory_order_relaxed);
        if (!arena.fallback_noticed.exchange(true)) {
            report_notice(arena.user_context,
                          "harena: arena %p is full: %s%s did not fit (%s left of %s); this and later overflows "
                          "fall back to the default allocator (counted in the fallbacks statistic, noticed once)",
                          static_cast<void *>(&arena), bytes_text(bytes).text, what.c_str(),
                          bytes_text(left).text, bytes_text(arena.capacity).text);
        }
        return HARENA_ERROR_OVERFLOW;
    }
    const uint64_t needed = size <= UINT64_MAX - top ? top + size : UINT64_MAX;
    return report_error(arena.user_context, HARENA_ERROR_OVERFLOW,
                        "harena: cannot allocate %s%s: %s left of %s (%s in use, %u frame(s)); create the arena "
                        "with at least %s or choose HARENA_OVERFLOW_FALLBACK",
                        bytes_text(bytes).text, what.c_str(), bytes_text(left).text, bytes_text(arena.capacity).text,
                        bytes_text(top).text, arena.depth.load(std::memory_order_relaxed),
                        bytes_text(needed).text);
}

[[gnu::cold, gnu::noinline]] int no_frame(harena_arena &arena, uint64_t bytes, const AllocationName &name) {
    const std::string what = name.known() ? " for " + name.text() : std::string();
    return report_error(arena.user_context, HARENA_ERROR_NO_FRAME,
                        "harena_alloc: arena %p has no frame pushed; push one (harena_push or a scope) before "
                        "allocating %s%s",
                        static_cast<void *>(&arena), bytes_text(bytes).text, what.c_str());
}

[[gnu::noinline]] void record(harena_arena &arena, uint64_t offset, uint64_t size, const AllocationName &name) {
    std::string text = name.known() ? name.text() : "an unnamed allocation";
    std::lock_guard<std::mutex> lock(arena.live_mutex);
    arena.live.push_back(LiveAllocation{offset, size, std::move(text)});
}

}  // namespace

void forget_debug_record(harena_arena &arena, uint64_t offset) {
    if (!arena.debug) {
        return;
    }
    std::lock_guard<std::mutex> lock(arena.live_mutex);
    for (auto it = arena.live.rbegin(); it != arena.live.rend(); ++it) {
        if (it->offset == offset) {
            arena.live.erase(std::next(it).base());
            return;
        }
    }
}

namespace {

// At least one alignment unit, and in guard mode room for the band after the
// bytes (arena.guard is 0 otherwise).
uint64_t allocation_size(const harena_arena &arena, uint64_t bytes) {
    return round_up((bytes == 0 ? 1 : bytes) + arena.guard, arena.alignment);
}

// A new slice of a watched arena (debug mode, guard mode, a memory checker):
// recorded, declared to the checker, and its band, from the end of the bytes
// to the end of the slice, filled.
[[gnu::cold, gnu::noinline]] int watched_allocation(harena_arena &arena, uint64_t top, uint64_t bytes,
                                                    uint64_t size, const AllocationName &name) {
    const uint64_t address = arena.base + top;
    if (arena.debug) {
        record(arena, top, size, name);
    }
    if (arena.nvtx != nullptr) {
        nvtx_region_register(arena, address, bytes);
    }
    if (arena.guard != 0) {
        GuardBand band{top, top + bytes, top + size, false, name.known() ? name.text() : "an unnamed allocation", ""};
        if (int err = guard_slice(arena, nullptr, std::move(band))) {
            (void)release(arena, address, bytes);
            return err;
        }
    }
    return HARENA_OK;
}

// A slice of a watched arena comes back: it ends for the checker whether or
// not its bytes come back now, and its band is checked.
[[gnu::cold, gnu::noinline]] int watched_release(harena_arena &arena, uint64_t address) {
    if (arena.nvtx != nullptr) {
        nvtx_region_unregister(arena, address);
    }
    const uint64_t begin = address - arena.base;
    forget_debug_record(arena, begin);
    return arena.guard != 0 ? guard_release(arena, nullptr, begin) : HARENA_OK;
}

}  // namespace

std::string AllocationName::text() const {
    if (name != nullptr) {
        return "'" + std::string(name) + "'";
    }
    if (buffer == nullptr) {
        return std::string();
    }
    char text[160];
    int n = std::snprintf(text, sizeof(text), "halide_buffer_t %p (%s%d", static_cast<const void *>(buffer),
                          type_code_name(buffer->type.code), buffer->type.bits);
    if (buffer->type.lanes > 1) {
        n += std::snprintf(text + n, sizeof(text) - n, "x%d", buffer->type.lanes);
    }
    for (int i = 0; i < buffer->dimensions && n < static_cast<int>(sizeof(text)) - 16; i++) {
        n += std::snprintf(text + n, sizeof(text) - n, "%s%d", i == 0 ? ", " : "x", buffer->dim[i].extent);
    }
    std::snprintf(text + n, sizeof(text) - n, ")");
    return text;
}

namespace {

uint64_t count_total(const harena_arena &arena, const std::atomic<uint64_t> &wrap_counter, int shift) {
    uint64_t wraps, state;
    do {
        wraps = wrap_counter.load(std::memory_order_relaxed);
        state = arena.state.load(std::memory_order_relaxed);
    } while (wraps != wrap_counter.load(std::memory_order_relaxed));
    const uint64_t field = (state >> shift) & ((uint64_t(1) << kCountBits) - 1);
    return (wraps << kCountBits) + field;
}

}  // namespace

uint64_t allocation_total(const harena_arena &arena) {
    return count_total(arena, arena.allocation_wraps, kAllocationShift);
}

uint64_t reclaim_total(const harena_arena &arena) {
    return count_total(arena, arena.reclaim_wraps, kReclaimShift);
}

int bump(harena_arena &arena, uint64_t bytes, const AllocationName &name, uint64_t *address) {
    if (arena.depth.load(std::memory_order_relaxed) == 0) {
        return no_frame(arena, bytes, name);
    }
    uint64_t state = arena.state.load(std::memory_order_relaxed);
    if (bytes > arena.capacity) {
        return overflow(arena, bytes, bytes, offset_of(state), name);
    }
    const uint64_t size = allocation_size(arena, bytes);
    uint64_t top;
    do {
        top = offset_of(state);
        if (size > arena.capacity - top) {
            return overflow(arena, bytes, size, top, name);
        }
        // top + size <= capacity: the offset cannot carry into the count.
    } while (!arena.state.compare_exchange_weak(state, state + kOneAllocation + size, std::memory_order_relaxed));
    if (((state + kOneAllocation) >> kAllocationShift) == 0) {
        arena.allocation_wraps.fetch_add(1, std::memory_order_relaxed);
    }
    raise_high_water(arena, top + size);
    *address = arena.base + top;
    return arena.watched ? watched_allocation(arena, top, bytes, size, name) : HARENA_OK;
}

int release(harena_arena &arena, uint64_t address, uint64_t bytes) {
    const uint64_t begin = address - arena.base;
    const int result = arena.watched ? watched_release(arena, address) : HARENA_OK;
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (depth == 0 || bytes > arena.capacity) {
        return result;
    }
    // Bytes below the top frame's start, or in its reservation, come back
    // when their own frame pops.
    const Frame &frame = arena.frames[depth - 1];
    if (begin < frame.offset + frame.reserved) {
        return result;
    }
    const uint64_t end = begin + allocation_size(arena, bytes);
    uint64_t state = arena.state.load(std::memory_order_relaxed);
    // Retried only while the allocation is still the most recent one: a
    // failed exchange may come from a free elsewhere that did not move it.
    while (offset_of(state) == end) {
        const uint64_t next = with_one_more_reclaim(with_offset(state, begin));
        if (arena.state.compare_exchange_weak(state, next, std::memory_order_relaxed)) {
            if ((next & kReclaimMask) == 0) {
                arena.reclaim_wraps.fetch_add(1, std::memory_order_relaxed);
            }
            return result;
        }
    }
    return result;
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

int harena_alloc(harena_arena *arena, uint64_t bytes, const char *name, uint64_t *address) {
    if (int err = check_arena(arena, "harena_alloc")) {
        return err;
    }
    if (address == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_alloc: address is NULL");
    }
    return bump(*arena, bytes, AllocationName{name, nullptr}, address);
}

int harena_alloc_buffer(harena_arena *arena, const halide_buffer_t *buf, uint64_t *address) {
    if (int err = check_arena(arena, "harena_alloc_buffer")) {
        return err;
    }
    if (buf == nullptr || address == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_alloc_buffer: %s is NULL", buf == nullptr ? "the buffer" : "address");
    }
    return bump(*arena, buf->size_in_bytes(), AllocationName{nullptr, buf}, address);
}

int harena_free(harena_arena *arena, uint64_t address, uint64_t bytes) {
    if (int err = check_arena(arena, "harena_free")) {
        return err;
    }
    if (!contains(*arena, address)) {
        return report_error(arena->user_context, HARENA_ERROR_NOT_IN_ARENA,
                            "harena_free: address 0x%llx is not in arena %p [0x%llx, 0x%llx)",
                            static_cast<unsigned long long>(address), static_cast<void *>(arena),
                            static_cast<unsigned long long>(arena->base),
                            static_cast<unsigned long long>(arena->base + arena->capacity));
    }
    return release(*arena, address, bytes);
}

}  // extern "C"
