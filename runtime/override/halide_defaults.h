// Halide 14's default device allocation paths, reproduced for the calls the
// override does not serve from an arena. A strong halide_device_malloc
// replaces Halide's weak one in the whole program (the device interfaces'
// public function pointers included), so the default behaviour is only
// reachable through each interface's backend table, which these call exactly
// as src/runtime/device_interface.cpp does.
#pragma once

#include "HalideRuntime.h"

namespace harena::override_detail {

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

// The buffer checks every default entry point starts with
// (debug_log_and_validate_buf): 0 or Halide's error code, reported.
int validate_buffer(void *user_context, const halide_buffer_t *buf, const char *routine);

// Halide refuses to move a buffer from one device interface to another;
// message is the routine's own.
int check_same_interface(void *user_context, const halide_buffer_t *buf,
                         const halide_device_interface_t *device_interface, const char *message);

// The remainder of each default entry point, after the checks above.
int default_device_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *device_interface);
int default_device_free(void *user_context, halide_buffer_t *buf);
int default_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                   const halide_device_interface_t *device_interface);
int default_device_and_host_free(void *user_context, halide_buffer_t *buf);

}  // namespace harena::override_detail
