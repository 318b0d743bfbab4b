// Strong definitions of Halide's device allocation entry points. They win over
// the weak ones in every AOT runtime of the program; see harena/override.h.
#include "core/arena.h"
#include "counters.h"
#include "core/errors.h"
#include "halide_defaults.h"
#include "harena/override.h"
#include "harena/runtime.h"
#include "placed_calls.h"

using namespace harena::override_detail;
using harena::detail::active_arena_of;
using harena::detail::SuspendScopes;

namespace {

// take_bytes' answer when the arena's policy sends a request to the default
// allocator (distinct from 0 and from Halide's negative codes).
constexpr int kFallBack = 1;

// Halide's backends reject buffers with negative strides (CUDA aborts):
// those keep Halide's behaviour.
bool has_negative_stride(const halide_buffer_t *buf) {
    for (int i = 0; i < buf->dimensions; i++) {
        if (buf->dim[i].stride < 0) {
            return true;
        }
    }
    return false;
}

// The frame's record of bound slices is full: the buffer goes to the default
// allocator, counted as a fallback and noticed once per arena.
[[gnu::cold, gnu::noinline]] int slice_log_full(harena_arena *arena, const halide_buffer_t *buf) {
    if (arena->stats.fallback()) {
        // The buffer's description is a string (host memory).
        (void)harena::detail::guarded(arena->user_context, "halide_device_malloc", [&] {
            harena::detail::report_notice(
                arena->user_context,
                "harena: arena %p already has %u buffers bound to its slices; %s and later ones go to the default "
                "allocator (counted in the fallbacks statistic, noticed once)",
                static_cast<void *>(arena), harena::detail::kSliceLogCapacity,
                harena::detail::AllocationName{nullptr, buf}.text().c_str());
            return 0;
        });
    }
    return kFallBack;
}

// 0 with *address holding `bytes` (the buffer's size) for it, kFallBack, or
// Halide's error code after the arena reported why. The arena is the calling thread's
// active one, so it is live (destroy refuses while it has a scope) and
// harena_alloc_buffer's checks would only repeat what the caller knows.
int take_bytes(harena_arena *arena, halide_buffer_t *buf, uint64_t bytes, uint64_t *address) {
    if (has_negative_stride(buf)) {
        return kFallBack;
    }
    PlacedCall *placed = placed_call_on(arena);
    if (placed != nullptr && placed->take_placed(bytes, address)) {
        if (arena->slices.note(buf, *address)) {
            return 0;
        }
        placed->untake(*address);
        return slice_log_full(arena, buf);
    }
    const harena::detail::AllocationName name{nullptr, buf};
    const int result = harena::detail::bump(*arena, bytes, name, address);
    if (result == HARENA_OK) {
        // The record lets the frame's pop move the buffer out if it is still
        // bound then; without room for it the slice must not be handed out.
        if (arena->slices.note(buf, *address)) {
            if (placed != nullptr) {
                placed->bumped(*address, bytes, name);
            }
            return 0;
        }
        (void)harena::detail::release(*arena, *address, bytes, "halide_device_malloc");
        return slice_log_full(arena, buf);
    }
    if (result == HARENA_ERROR_OVERFLOW && arena->overflow_policy == HARENA_OVERFLOW_FALLBACK) {
        return kFallBack;
    }
    return halide_error_code_device_malloc_failed;
}

// Binds the bytes to the buffer the way Halide binds foreign memory, which
// sets device and device_interface and leaves ownership outside Halide. The
// caller has validated buf and found no device allocation on it.
int bind(void *user_context, harena_arena *arena, halide_buffer_t *buf, const halide_device_interface_t *iface,
         uint64_t address, uint64_t bytes) {
    const int result = wrap_native(user_context, buf, iface, address);
    if (result != 0) {
        arena->slices.forget(address);
        (void)harena::detail::release(*arena, address, bytes, "halide_device_malloc");
        return result;
    }
    count(Event::device_arena_allocation);
    return 0;
}

// The arena whose memory buf's device allocation is, or NULL; it is live and
// contains buf->device.
harena_arena *slice_owner(const halide_buffer_t *buf) {
    if (buf->device_interface == nullptr || buf->device == 0) {
        return nullptr;
    }
    return harena::detail::arena_holding(buf->device_interface, buf->device);
}

// In guard mode a damaged band fails the free (after the report), so that the
// pipeline that freed the buffer fails too.
int give_back(void *user_context, harena_arena *arena, halide_buffer_t *buf) {
    arena->slices.forget(buf->device);
    // A placed allocation's bytes belong to the call's block: nothing to release.
    PlacedCall *placed = placed_call_on(arena);
    const int guard = placed != nullptr && placed->give_back_placed(buf->device) ?
                          HARENA_OK :
                          harena::detail::release(*arena, buf->device, buf->size_in_bytes(), "halide_device_free");
    const int result = detach_native(user_context, buf);
    count(Event::device_arena_free);
    return result ? halide_error_code_device_free_failed : guard;
}

}  // namespace

extern "C" {

int halide_device_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    if (int err = validate_buffer(user_context, buf, "halide_device_malloc")) {
        return err;
    }
    if (int err = check_same_interface(user_context, buf, iface,
                                       "halide_device_malloc doesn't support switching interfaces\n")) {
        return err;
    }
    if (iface == nullptr) {
        return halide_error_no_device_interface(user_context);
    }
    if (harena_arena *arena = active_arena_of(iface)) {
        if (buf->device != 0) {
            return 0;  // as Halide's backends: an existing allocation stays
        }
        const uint64_t bytes = buf->size_in_bytes();
        uint64_t address = 0;
        const int result = take_bytes(arena, buf, bytes, &address);
        if (result == 0) {
            return bind(user_context, arena, buf, iface, address, bytes);
        }
        if (result != kFallBack) {
            return result;
        }
    }
    count(Event::device_default_allocation);
    SuspendScopes suspend;
    return default_device_malloc(user_context, buf, iface);
}

int halide_device_free(void *user_context, halide_buffer_t *buf) {
    if (int err = validate_buffer(user_context, buf, "halide_device_free")) {
        return err;
    }
    if (buf->device_interface == nullptr) {
        // Nothing to free (a destructor's free after the pipeline's own):
        // Halide's generic free only clears the device-dirty bit.
        buf->set_device_dirty(false);
        return 0;
    }
    if (harena_arena *arena = slice_owner(buf)) {
        return give_back(user_context, arena, buf);
    }
    count(Event::device_default_free);
    SuspendScopes suspend;
    return default_device_free(user_context, buf);
}

int halide_device_and_host_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    if (int err = validate_buffer(user_context, buf, "halide_device_and_host_malloc")) {
        return err;
    }
    if (int err = check_same_interface(user_context, buf, iface,
                                       "halide_device_and_host_malloc doesn't support switching interfaces\n")) {
        return err;
    }
    if (iface == nullptr) {
        return halide_error_no_device_interface(user_context);
    }
    harena_arena *arena = active_arena_of(iface);
    if (arena != nullptr && buf->device == 0) {
        const uint64_t bytes = buf->size_in_bytes();
        uint64_t address = 0;
        int result = take_bytes(arena, buf, bytes, &address);
        if (result == 0) {
            auto *host = static_cast<uint8_t *>(halide_malloc(user_context, bytes));
            if (host == nullptr) {
                arena->slices.forget(address);
                (void)harena::detail::release(*arena, address, bytes, "halide_device_malloc");
                halide_error(user_context, "allocating host and device memory failed\n");
                return halide_error_code_device_malloc_failed;
            }
            buf->host = host;
            result = bind(user_context, arena, buf, iface, address, bytes);
            if (result != 0) {
                halide_free(user_context, host);
                buf->host = nullptr;
            }
            return result;
        }
        if (result != kFallBack) {
            return result;
        }
    }
    count(Event::device_default_allocation);
    SuspendScopes suspend;
    return default_device_and_host_malloc(user_context, buf, iface);
}

int halide_device_and_host_free(void *user_context, halide_buffer_t *buf) {
    if (int err = validate_buffer(user_context, buf, "halide_device_and_host_free")) {
        return err;
    }
    if (harena_arena *arena = slice_owner(buf)) {
        const int result = give_back(user_context, arena, buf);
        if (buf->host != nullptr) {
            halide_free(user_context, buf->host);
            buf->host = nullptr;
        }
        buf->set_host_dirty(false);
        buf->set_device_dirty(false);
        return result;
    }
    if (buf->device_interface != nullptr) {
        count(Event::device_default_free);
    }
    SuspendScopes suspend;
    return default_device_and_host_free(user_context, buf);
}

}  // extern "C"
