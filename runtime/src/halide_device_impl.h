// The backend table behind a Halide 14 device interface. Its public entry
// points (halide_buffer_copy, ...) take Halide's device copy lock, which is
// already held when the halide_device_malloc override runs inside
// halide_copy_to_device, so the runtime's own copies there go through the
// backend's entries directly, as Halide's generic code does.
#pragma once

#include "HalideRuntime.h"

namespace harena::detail {

// Layout of halide_device_interface_impl_t in Halide 14
// (src/runtime/device_interface.h); Halide's public headers only declare it.
struct Halide14DeviceImpl {
    void (*use_module)();
    void (*release_module)();
    int (*device_malloc)(void *user_context, halide_buffer_t *buf);
    int (*device_free)(void *user_context, halide_buffer_t *buf);
    int (*device_sync)(void *user_context, halide_buffer_t *buf);
    int (*device_release)(void *user_context);
    int (*copy_to_host)(void *user_context, halide_buffer_t *buf);
    int (*copy_to_device)(void *user_context, halide_buffer_t *buf);
    int (*device_and_host_malloc)(void *user_context, halide_buffer_t *buf);
    int (*device_and_host_free)(void *user_context, halide_buffer_t *buf);
    int (*buffer_copy)(void *user_context, halide_buffer_t *src, const halide_device_interface_t *dst_interface,
                       halide_buffer_t *dst);
    int (*device_crop)(void *user_context, const halide_buffer_t *src, halide_buffer_t *dst);
    int (*device_slice)(void *user_context, const halide_buffer_t *src, int slice_dim, int slice_pos,
                        halide_buffer_t *dst);
    int (*device_release_crop)(void *user_context, halide_buffer_t *buf);
    int (*wrap_native)(void *user_context, halide_buffer_t *buf, uint64_t handle);
    int (*detach_native)(void *user_context, halide_buffer_t *buf);
};

inline const Halide14DeviceImpl *impl_of(const halide_device_interface_t *device_interface) {
    return reinterpret_cast<const Halide14DeviceImpl *>(device_interface->impl);
}

}  // namespace harena::detail
