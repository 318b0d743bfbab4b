// Allocation and free inside the top frame: a compare-and-swap on one word,
// so several threads allocate at once without a lock.
#include <cstdio>
#include <new>
#include <string>

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
    // The message names the allocation: a string, so host memory.
    return guarded(arena.user_context, "harena_alloc", [&]() -> int {
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
    });
}

[[gnu::cold, gnu::noinline]] int no_frame(harena_arena &arena, uint64_t bytes, const AllocationName &name) {
    return guarded(arena.user_context, "harena_alloc", [&]() -> int {
        const std::string what = name.known() ? " for " + name.text() : std::string();
        return report_error(arena.user_context, HARENA_ERROR_NO_FRAME,
                            "harena_alloc: arena %p has no frame pushed; push one (harena_push or a scope) before "
                            "allocating %s%s",
                            static_cast<void *>(&arena), bytes_text(bytes).text, what.c_str());
    });
}

[[gnu::noinline]] int record(harena_arena &arena, uint64_t offset, uint64_t size, uint64_t bytes,
                             const AllocationName &name) {
    try {
        std::string text = name.known() ? name.text() : "an unnamed allocation";
        std::lock_guard<std::mutex> lock(arena.live_mutex);
        arena.live.push_back(LiveAllocation{offset, size, bytes, std::move(text)});
    } catch (const std::bad_alloc &) {
        return report_error(arena.user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "harena: out of host memory for the record of allocations (debug and guard modes)");
    }
    return HARENA_OK;
}

}  // namespace

void forget_debug_record(harena_arena &arena, uint64_t offset) {
    if (!keeps_records(arena)) {
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
    if (keeps_records(arena)) {
        if (int err = record(arena, top, size, bytes, name)) {
            return err;  // the bytes come back when the frame pops
        }
    }
    if (arena.nvtx != nullptr) {
        nvtx_region_register(arena, address, bytes);
    }
    if (arena.guard != 0) {
        const int err = guarded(arena.user_context, "harena_alloc", [&] {
            return guard_slice(arena, nullptr,
                               GuardBand{top, top + bytes, top + size, false,
                                         name.known() ? name.text() : "an unnamed allocation", ""});
        });
        if (err != HARENA_OK) {
            (void)release(arena, address, bytes, "harena_alloc");
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
    {
        std::lock_guard<std::mutex> lock(arena.live_mutex);
        for (auto it = arena.live.rbegin(); it != arena.live.rend(); ++it) {
            if (it->offset == begin) {
                if (it->bytes == size) {
                    return std::string();
                }
                return "the allocation there is " + it->name + " of " + bytes_text(it->requested).text;
            }
        }
    }
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < depth; i++) {
        const Frame &f = arena.frames[i];
        if (begin >= f.offset && begin < f.offset + f.reserved) {
            return std::string();
        }
    }
    return "no live allocation starts there (freed already, or never allocated)";
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

int bump(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address) {
    if (arena.depth.load(std::memory_order_relaxed) == 0) {
        return no_frame(arena, bytes, name);
    }
    uint64_t state = arena.state.load(std::memory_order_relaxed);
    if (bytes > arena.capacity) {
        return overflow(arena, bytes, bytes, offset_of(state), name);
    }
    const uint64_t size = allocation_size(arena, bytes);
    uint64_t top;
    // Acquire: bytes another thread freed (release) are this thread's now.
    do {
        top = offset_of(state);
        if (size > arena.capacity - top) {
            return overflow(arena, bytes, size, top, name);
        }
        // top + size <= capacity: the offset cannot carry into the count.
    } while (!arena.state.compare_exchange_weak(state, state + kOneAllocation + size, std::memory_order_acquire,
                                                std::memory_order_relaxed));
    const uint64_t made = state + kOneAllocation + size;
    arena.newest.store(with_offset(made, top), std::memory_order_relaxed);
    if ((made >> kAllocationShift) == 0) {
        arena.allocation_wraps.fetch_add(1, std::memory_order_relaxed);
    }
    raise_high_water(arena, top + size);
    *address = arena.base + top;
    return arena.watched ? watched_allocation(arena, top, bytes, size, name) : HARENA_OK;
}

namespace {

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
        if (keeps_records(arena)) {
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
    // The usual free, of the newest allocation of an unwatched arena, needs
    // no other check: that slice lies in the top frame, past its reservation.
    const uint64_t begin = address - arena.base;
    const uint64_t state = arena.state.load(std::memory_order_relaxed);
    const uint64_t newest = arena.newest.load(std::memory_order_relaxed);
    if (!arena.watched && bytes <= arena.capacity && ((newest ^ state) & ~kOffsetMask) == 0 &&
        offset_of(newest) == begin && begin + allocation_size(arena, bytes) == offset_of(state)) {
        return reclaim(arena, state, begin, offset_of(state), HARENA_OK);
    }
    return release_checked(arena, address, bytes, function);
}

}  // namespace harena::detail

using namespace harena::detail;

namespace {

// harena_alloc when the fast check of the arena did not answer.
[[gnu::cold, gnu::noinline]] int alloc_checked(harena_arena *arena, uint64_t bytes, const char *name,
                                               uint64_t *address) {
    if (int err = check_live(arena, "harena_alloc", nullptr)) {
        return err;
    }
    if (address == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_alloc: address is NULL");
    }
    return bump(*arena, bytes, AllocationName{name, nullptr}, address);
}

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

int harena_alloc(harena_arena *arena, uint64_t bytes, const char *name, uint64_t *address) {
    if (!known_live(arena) || address == nullptr) {
        return alloc_checked(arena, bytes, name, address);
    }
    return bump(*arena, bytes, AllocationName{name, nullptr}, address);
}

int harena_alloc_buffer(harena_arena *arena, const halide_buffer_t *buf, uint64_t *address) {
    if (int err = check_live(arena, "harena_alloc_buffer", nullptr)) {
        return err;
    }
    if (buf == nullptr || address == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_alloc_buffer: %s is NULL", buf == nullptr ? "the buffer" : "address");
    }
    return bump(*arena, buf->size_in_bytes(), AllocationName{nullptr, buf}, address);
}

int harena_free(harena_arena *arena, uint64_t address, uint64_t bytes) {
    if (!known_live(arena) || !contains(*arena, address)) {
        return free_checked(arena, address, bytes);
    }
    return release(*arena, address, bytes, "harena_free");
}

}  // extern "C"
