// The slice log and the eviction of buffers that outlive their frame.
#include "slices/state.h"

#include <new>

#include "harena/runtime.h"
#include "core/device_bytes.h"
#include "core/errors.h"

namespace harena::detail {

bool SliceLog::set_capacity(uint32_t capacity) {
    entries_.reset(new (std::nothrow) Entry[capacity]);
    capacity_ = entries_ ? capacity : 0;
    return entries_ != nullptr;
}

// Fibonacci hashing: slice addresses are multiples of the alignment, and the
// high bits of the product mix all of theirs.
uint32_t SliceLog::home(uint64_t address) const {
    return static_cast<uint32_t>((address * 0x9E3779B97F4A7C15ULL) >> 32) & (capacity_ - 1);
}

bool SliceLog::note(halide_buffer_t *buf, uint64_t address) {
    const uint32_t start = capacity_ ? home(address) : 0;
    for (uint32_t n = 0; n < capacity_; n++) {
        Entry &e = entries_[(start + n) & (capacity_ - 1)];
        uint64_t seen = e.address.load(std::memory_order_relaxed);
        if ((seen == kEmpty || seen == kFreed) &&
            e.address.compare_exchange_strong(seen, kClaimed, std::memory_order_acquire)) {
            e.buffer.store(buf, std::memory_order_relaxed);
            live_.fetch_add(1, std::memory_order_relaxed);
            e.address.store(address, std::memory_order_release);
            return true;
        }
    }
    return false;
}

void SliceLog::forget(uint64_t address) {
    const uint32_t start = capacity_ ? home(address) : 0;
    for (uint32_t n = 0; n < capacity_; n++) {
        Entry &e = entries_[(start + n) & (capacity_ - 1)];
        const uint64_t seen = e.address.load(std::memory_order_acquire);
        if (seen == address) {
            live_.fetch_sub(1, std::memory_order_relaxed);
            e.address.store(kFreed, std::memory_order_release);
            return;
        }
        if (seen == kEmpty) {
            return;  // never bound (a slice harena_alloc handed out, say)
        }
    }
}

// Detach, allocate through the interface (the override's default path: no
// scope is active), copy. The buffer's dirty bits stay as they are: its
// contents move unchanged.
int evict_buffer(void *uc, const halide_device_interface_t *iface, uint64_t frame_id, halide_buffer_t *buf,
                 uint64_t address, uint64_t *moved) {
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
            *moved = bytes;
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

}  // namespace harena::detail
