// The slice log and the eviction of buffers that outlive their frame.
#include "slice_log.h"

#include <new>
#include <thread>

#include "arena.h"
#include "device_bytes.h"
#include "errors.h"

namespace harena::detail {

bool SliceLog::set_capacity(uint32_t capacity) {
    entries_.reset(new (std::nothrow) Entry[capacity]);
    capacity_ = entries_ ? capacity : 0;
    return entries_ != nullptr;
}

bool SliceLog::note(halide_buffer_t *buf, uint64_t address) {
    uint32_t index = size_.load(std::memory_order_relaxed);
    do {
        if (index >= capacity_) {
            return false;
        }
    } while (!size_.compare_exchange_weak(index, index + 1, std::memory_order_acq_rel));
    // A trim that has just given this entry back clears it right after.
    while (entries_[index].address.load(std::memory_order_acquire) != kEmpty) {
        std::this_thread::yield();
    }
    entries_[index].buffer.store(buf, std::memory_order_relaxed);
    entries_[index].address.store(address, std::memory_order_release);
    return true;
}

void SliceLog::forget(uint64_t address, uint32_t floor) {
    const uint32_t end = size_.load(std::memory_order_acquire);
    for (uint32_t i = end; i-- > 0;) {
        if (entries_[i].address.load(std::memory_order_acquire) == address) {
            entries_[i].address.store(kForgotten, std::memory_order_release);
            trim(floor);
            return;
        }
    }
}

void SliceLog::trim(uint32_t floor) {
    uint32_t n = size_.load(std::memory_order_acquire);
    // An entry reserved but not yet written reads empty, not forgotten, so
    // it stops the trim.
    while (n > floor && entries_[n - 1].address.load(std::memory_order_acquire) == kForgotten) {
        if (size_.compare_exchange_weak(n, n - 1, std::memory_order_acq_rel)) {
            entries_[n - 1].address.store(kEmpty, std::memory_order_release);
            n--;
        }
    }
}

namespace {

// Moves one buffer out of the slice at `address`: detach, allocate through
// the interface (the override's default path: no scope is active), copy.
// The buffer's dirty bits stay as they are: its contents move unchanged.
int evict(harena_arena &arena, uint64_t frame_id, halide_buffer_t *buf, uint64_t address) {
    void *uc = arena.user_context;
    const halide_device_interface_t *iface = arena.device_interface;
    const uint64_t bytes = buf->size_in_bytes();
    if (int err = iface->detach_native(uc, buf)) {
        return report_error(uc, err,
                            "harena: frame #%llu popped while a buffer still held its slice at 0x%llx, and "
                            "detaching it failed (error %d); the buffer still points into the arena",
                            static_cast<unsigned long long>(frame_id), static_cast<unsigned long long>(address), err);
    }
    int err = iface->device_malloc(uc, buf, iface);
    if (err == 0) {
        err = copy_device_bytes(uc, iface, address, buf->device, bytes);
        if (err == 0) {
            arena.evictions.fetch_add(1, std::memory_order_relaxed);
            arena.evicted_bytes.fetch_add(bytes, std::memory_order_relaxed);
            return HARENA_OK;
        }
        (void)iface->device_free(uc, buf);
    }
    // The device copy is lost; a host copy that is not stale is uploaded
    // again at its next use.
    const bool host_valid = buf->host != nullptr && !buf->device_dirty();
    buf->set_host_dirty(host_valid);
    buf->set_device_dirty(false);
    return report_error(uc, HARENA_ERROR_DEVICE_MALLOC_FAILED,
                        "harena: frame #%llu popped while a buffer still held %s of it; moving the buffer to the "
                        "device interface's own memory failed (error %d), so its device contents are lost%s",
                        static_cast<unsigned long long>(frame_id), bytes_text(bytes).text, err,
                        host_valid ? " (its host copy is current and will be uploaded again)" : "");
}

}  // namespace

void evict_live_slices(harena_arena &arena, uint64_t frame_id, uint32_t first_entry) {
    if (arena.slices.size() <= first_entry) {
        return;
    }
    SuspendScopes suspend;
    arena.slices.drain(first_entry, [&](halide_buffer_t *buf, uint64_t address) {
        forget_debug_record(arena, address - arena.base);
        // A buffer detached by other means no longer holds the slice.
        if (buf->device == address && buf->device_interface == arena.device_interface) {
            (void)evict(arena, frame_id, buf, address);
        }
    });
}

}  // namespace harena::detail
