// Halide's default device allocation paths, reproduced for the calls the
// override does not serve from an arena. A strong halide_device_malloc
// replaces Halide's weak one in the whole program (the device interfaces'
// public function pointers included), so the default behaviour is only
// reachable through each interface's backend table, which these call exactly
// as src/runtime/device_interface.cpp does. The same goes for binding arena
// memory: wrap_native and detach_native below are Halide's generic entry
// points less the buffer checks the override has already made on that call.
#pragma once

#include "HalideRuntime.h"
#include "core/halide_device_impl.h"

namespace harena::override_detail {

using harena::detail::HalideDeviceImpl;
using harena::detail::impl_of;

// The buffer checks every default entry point starts with
// (debug_log_and_validate_buf): 0 or Halide's error code, reported. Inline:
// every call of the override makes them once.
inline int validate_buffer(void *user_context, const halide_buffer_t *buf, const char *routine) {
    if (buf == nullptr) {
        return halide_error_buffer_is_null(user_context, routine);
    }
    const bool interface_set = buf->device_interface != nullptr;
    const bool device_set = buf->device != 0;
    if (device_set && !interface_set) {
        return halide_error_no_device_interface(user_context);
    }
    if (interface_set && !device_set) {
        return halide_error_device_interface_no_device(user_context);
    }
    if (buf->host_dirty() && buf->device_dirty()) {
        return halide_error_host_and_device_dirty(user_context);
    }
    return 0;
}

// Halide refuses to move a buffer from one device interface to another;
// message is the routine's own.
int report_switching_interfaces(void *user_context, const char *message);
inline int check_same_interface(void *user_context, const halide_buffer_t *buf,
                                const halide_device_interface_t *device_interface, const char *message) {
    if (buf->device_interface != nullptr && buf->device_interface != device_interface) {
        return report_switching_interfaces(user_context, message);
    }
    return 0;
}

// halide_device_wrap_native without the checks it starts with, which the
// caller has made on the same buffer (valid, no device allocation, no other
// interface): the interface's backend binds handle to buf, holding its module
// for as long as the buffer stays bound. An interface whose public wrap_native
// is not Halide's generic one keeps its own.
inline int wrap_native(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *device_interface,
                       uint64_t handle) {
    if (device_interface->wrap_native != &halide_device_wrap_native) {
        return device_interface->wrap_native(user_context, buf, handle, device_interface);
    }
    const HalideDeviceImpl *impl = impl_of(device_interface);
    impl->use_module();
    buf->device_interface = device_interface;
    const int result = impl->wrap_native(user_context, buf, handle);
    impl->release_module();
    return result ? halide_error_code_device_malloc_failed : 0;
}

// halide_abort_if_false: Halide treats a device handle left behind by a free
// or a detach as memory corruption and aborts, after printing message.
void abort_unless_released(void *user_context, const halide_buffer_t *buf, const char *message);

// halide_device_detach_native without its buffer checks, which the caller
// has made (buf is valid and bound through its device_interface): the
// backend unbinds buf and releases the module wrap_native held. An interface
// whose public detach_native is not Halide's generic one keeps its own.
inline int detach_native(void *user_context, halide_buffer_t *buf) {
    const halide_device_interface_t *device_interface = buf->device_interface;
    if (device_interface->detach_native != &halide_device_detach_native) {
        return device_interface->detach_native(user_context, buf);
    }
    const HalideDeviceImpl *impl = impl_of(device_interface);
    impl->use_module();
    const int result = impl->detach_native(user_context, buf);
    impl->release_module();
    if (buf->device != 0) {
        abort_unless_released(user_context, buf,
                              "halide_device_detach_native: the device interface left buf->device set\n");
    }
    return result ? halide_error_code_device_detach_native_failed : 0;
}

// The remainder of each default entry point, after the checks above.
int default_device_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *device_interface);
int default_device_free(void *user_context, halide_buffer_t *buf);
int default_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                   const halide_device_interface_t *device_interface);
int default_device_and_host_free(void *user_context, halide_buffer_t *buf);

}  // namespace harena::override_detail
