// The backend table behind a Halide device interface. Its public entry
// points (halide_buffer_copy, ...) take Halide's device copy lock, which is
// already held when the halide_device_malloc override runs inside
// halide_copy_to_device, so the runtime's own copies there go through the
// backend's entries directly, as Halide's generic code does.
#pragma once

#include "HalideRuntime.h"

namespace harena::detail {

// Why a transcription: the override replaces halide_device_malloc, _free
// and their _and_host_ forms in the whole program, and the public
// halide_device_interface_t points at those same functions, so Halide's
// default allocation is reachable only through this table: no public entry
// point of 14 or 21 reaches it (the halide_default_* of HalideRuntime.h are
// for host memory, errors, threads, symbols and tracing; the CUDA backend's
// public functions wrap and detach a pointer, and allocate nothing).
//
// The releases whose halide_device_interface_impl_t (src/runtime/
// device_interface.h, not installed: the public headers only declare it) has
// exactly the layout below: 16 entries in this order, read in each release's
// source. HalideRuntime.h names its release from Halide 15 on; 14's names none.
// tests/runtime/core/halide_device_impl_test.cpp checks every entry against
// the CUDA backend of the release the project is built with.
#ifdef HALIDE_VERSION_MAJOR
static_assert(HALIDE_VERSION_MAJOR == 21,
              "halide_device_impl.h: the backend table's layout has been checked for Halide 14 and 21 only. "
              "Compare src/runtime/device_interface.h of this release with the struct below and add the "
              "release here if they match.");
#endif

struct HalideDeviceImpl {
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

static_assert(sizeof(HalideDeviceImpl) == 16 * sizeof(void (*)()), "16 function pointers, no padding");

inline const HalideDeviceImpl *impl_of(const halide_device_interface_t *device_interface) {
    return reinterpret_cast<const HalideDeviceImpl *>(device_interface->impl);
}

}  // namespace harena::detail
