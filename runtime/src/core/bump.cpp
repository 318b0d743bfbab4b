// Allocation inside the top frame: a compare-and-swap on one word, so
// several threads allocate at once without a lock.
#include <mutex>
#include <string>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

// The failure and debug paths stay out of line so that the allocation path
// itself is a few instructions around one compare-and-swap.
[[gnu::cold, gnu::noinline]] int overflow(harena_arena &arena, uint64_t bytes, uint64_t size, uint64_t top,
                                          AllocationName name) {
    // The message names the allocation: a string, so host memory.
    return guarded(arena.user_context, "harena_alloc", [&]() -> int {
        arena.stats.overflow();
        // A request no arena can hold asks for no growth: the next frames would
        // try a region of the largest size, fail, and never grow again.
        if (arena.grows && size <= kMaxCapacity - top) {
            growth->overflowed(arena, top + size);
        }
        const uint64_t left = arena.capacity - top;
        const std::string what = name.known() ? " for " + name.text() : std::string();
        if (arena.overflow_policy == HARENA_OVERFLOW_FALLBACK) {
            if (arena.stats.fallback()) {
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

[[gnu::cold, gnu::noinline]] int no_frame(harena_arena &arena, uint64_t bytes, AllocationName name) {
    return guarded(arena.user_context, "harena_alloc", [&]() -> int {
        const std::string what = name.known() ? " for " + name.text() : std::string();
        return report_error(arena.user_context, HARENA_ERROR_NO_FRAME,
                            "harena_alloc: arena %p has no frame pushed; push one (harena_push or a scope) before "
                            "allocating %s%s",
                            static_cast<void *>(&arena), bytes_text(bytes).text, what.c_str());
    });
}

// A new slice of a watched arena (debug mode, guard mode, a memory checker):
// the checking feature sees it (core/checking.h).
[[gnu::cold, gnu::noinline]] int watched_allocation(harena_arena &arena, uint64_t top, uint64_t bytes,
                                                    uint64_t size, const AllocationName &name) {
    return checking->allocated(arena, top, bytes, size, name);
}

uint64_t count_total(const ArenaCore &arena, const std::atomic<uint64_t> &wrap_counter, int shift) {
    uint64_t wraps, state;
    do {
        wraps = wrap_counter.load(std::memory_order_relaxed);
        state = arena.state.load(std::memory_order_relaxed);
    } while (wraps != wrap_counter.load(std::memory_order_relaxed));
    const uint64_t field = (state >> shift) & ((uint64_t(1) << kCountBits) - 1);
    return (wraps << kCountBits) + field;
}

}  // namespace

uint64_t allocation_total(const ArenaCore &arena) {
    return count_total(arena, arena.allocation_wraps, kAllocationShift);
}

uint64_t reclaim_total(const ArenaCore &arena) {
    return count_total(arena, arena.reclaim_wraps, kReclaimShift);
}

namespace {

// What every allocation does once its bytes [top, top + size) are taken.
inline int finish_allocation(harena_arena &arena, uint64_t made, uint64_t top, uint64_t bytes, uint64_t size,
                             const AllocationName &name, uint64_t *address) {
    arena.newest.store(with_offset(made, top), std::memory_order_relaxed);
    if ((made >> kAllocationShift) == 0) {
        arena.allocation_wraps.fetch_add(1, std::memory_order_relaxed);
    }
    raise_high_water(arena, top + size);
    *address = arena.base + top;
    return arena.watched ? watched_allocation(arena, top, bytes, size, name) : HARENA_OK;
}

// An allocation whose bytes may have been used on another stream than
// `stream` (core/streams.h): taken under the stream order's lock, and
// `stream` made to wait for their last users before the address is given.
[[gnu::noinline]] int bump_across(harena_arena &arena, uint64_t bytes, uint64_t size, const AllocationName &name,
                                  void *stream, uint64_t *address) {
    if (arena.streams_state == nullptr) {
        if (int err = change_single_stream(arena, stream, "harena_alloc_on_stream")) {
            return err;
        }
        return bump(arena, bytes, name, address);
    }
    StreamOrderLock lock(arena);
    if (stream != arena.home_stream) {
        stream_order->note_frame_use(arena, stream);
    }
    uint64_t state = arena.state.load(std::memory_order_acquire);
    uint64_t top;
    do {
        top = offset_of(state);
        if (size > arena.capacity - top) {
            return overflow(arena, bytes, size, top, name);
        }
    } while (!arena.state.compare_exchange_weak(state, state + kOneAllocation + size, std::memory_order_acquire,
                                                std::memory_order_acquire));
    const int crossed = stream_order->take(arena, top, top + size, stream, "harena_alloc");
    const int result = finish_allocation(arena, state + kOneAllocation + size, top, bytes, size, name, address);
    if (crossed != HARENA_OK && result == HARENA_OK) {
        (void)release(arena, *address, bytes, "harena_alloc");
        return crossed;
    }
    return result;
}

// Past the allocation limit: the arena is full, or the bytes were last used
// on another stream.
[[gnu::noinline]] int beyond_limit(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address) {
    const uint64_t top = top_of(arena);
    if (bytes > arena.capacity) {
        return overflow(arena, bytes, bytes, top, name);
    }
    const uint64_t size = allocation_size(arena, bytes);
    if (size > arena.capacity - top) {
        return overflow(arena, bytes, size, top, name);
    }
    return bump_across(arena, bytes, size, name, arena.home_stream, address);
}

// bump when another thread's allocation or free moved the top first.
[[gnu::noinline]] int bump_contended(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address) {
    const uint64_t size = allocation_size(arena, bytes);
    uint64_t state = arena.state.load(std::memory_order_acquire);
    uint64_t top;
    do {
        top = offset_of(state);
        if (top + size > arena.alloc_limit.load(std::memory_order_relaxed)) {
            return beyond_limit(arena, bytes, name, address);
        }
    } while (!arena.state.compare_exchange_weak(state, state + kOneAllocation + size, std::memory_order_acquire,
                                                std::memory_order_acquire));
    return finish_allocation(arena, state + kOneAllocation + size, top, bytes, size, name, address);
}

}  // namespace

int bump(harena_arena &arena, uint64_t bytes, AllocationName name, uint64_t *address) {
    if (arena.depth.load(std::memory_order_relaxed) == 0) {
        return no_frame(arena, bytes, name);
    }
    // Acquire: bytes another thread freed (release) are this thread's now,
    // and so is the lower limit a free on another stream set before them.
    uint64_t state = arena.state.load(std::memory_order_acquire);
    const uint64_t limit = arena.alloc_limit.load(std::memory_order_relaxed);
    if (bytes > limit) {
        return beyond_limit(arena, bytes, name, address);
    }
    const uint64_t size = allocation_size(arena, bytes);
    const uint64_t top = offset_of(state);
    // One test for both: the bytes fit (limit <= capacity, so the offset
    // cannot carry into the count), and no other stream used them.
    if (top + size > limit) {
        return beyond_limit(arena, bytes, name, address);
    }
    if (!arena.state.compare_exchange_strong(state, state + kOneAllocation + size, std::memory_order_acquire,
                                             std::memory_order_relaxed)) {
        return bump_contended(arena, bytes, name, address);
    }
    return finish_allocation(arena, state + kOneAllocation + size, top, bytes, size, name, address);
}

int bump_on(harena_arena &arena, uint64_t bytes, AllocationName name, void *stream, uint64_t *address) {
    if (stream == arena.home_stream || arena.depth.load(std::memory_order_relaxed) == 0 || bytes > arena.capacity) {
        return bump(arena, bytes, name, address);
    }
    return bump_across(arena, bytes, allocation_size(arena, bytes), name, stream, address);
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

}  // namespace

extern "C" {

int harena_alloc(harena_arena *arena, uint64_t bytes, const char *name, uint64_t *address) {
    if (!known_live(arena) || address == nullptr) {
        return alloc_checked(arena, bytes, name, address);
    }
    return bump(*arena, bytes, AllocationName{name, nullptr}, address);
}

int harena_alloc_on_stream(harena_arena *arena, uint64_t bytes, const char *name, void *stream, uint64_t *address) {
    if (int err = check_live(arena, "harena_alloc_on_stream", nullptr)) {
        return err;
    }
    if (address == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_alloc_on_stream: address is NULL");
    }
    if (int err = check_stream(*arena, stream, "harena_alloc_on_stream")) {
        return err;
    }
    return bump_on(*arena, bytes, AllocationName{name, nullptr}, stream, address);
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

}  // extern "C"
