#include "halide_defaults.h"

#include <cstdlib>

namespace harena::override_detail {

namespace {

const char *const kLeftDeviceSet = "halide_device_free: the device interface left buf->device set\n";

}  // namespace

void abort_unless_released(void *user_context, const halide_buffer_t *buf, const char *message) {
    if (buf->device != 0) {
        halide_print(user_context, message);
        std::abort();
    }
}

int report_switching_interfaces(void *user_context, const char *message) {
    halide_error(user_context, message);
    return halide_error_code_incompatible_device_interface;
}

int default_device_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *device_interface) {
    const HalideDeviceImpl *impl = impl_of(device_interface);
    impl->use_module();
    const int result = impl->device_malloc(user_context, buf);
    impl->release_module();
    return result ? halide_error_code_device_malloc_failed : 0;
}

int default_device_free(void *user_context, halide_buffer_t *buf) {
    const halide_device_interface_t *device_interface = buf->device_interface;
    if (device_interface == nullptr) {
        buf->set_device_dirty(false);
        return 0;
    }
    const HalideDeviceImpl *impl = impl_of(device_interface);
    impl->use_module();
    const int result = impl->device_free(user_context, buf);
    impl->release_module();
    abort_unless_released(user_context, buf, kLeftDeviceSet);
    return result ? halide_error_code_device_free_failed : 0;
}

int default_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                   const halide_device_interface_t *device_interface) {
    const HalideDeviceImpl *impl = impl_of(device_interface);
    impl->use_module();
    const int result = impl->device_and_host_malloc(user_context, buf);
    impl->release_module();
    if (result != 0) {
        halide_error(user_context, "allocating host and device memory failed\n");
        return halide_error_code_device_malloc_failed;
    }
    return 0;
}

int default_device_and_host_free(void *user_context, halide_buffer_t *buf) {
    const halide_device_interface_t *device_interface = buf->device_interface;
    if (device_interface != nullptr) {
        const HalideDeviceImpl *impl = impl_of(device_interface);
        impl->use_module();
        const int result = impl->device_and_host_free(user_context, buf);
        impl->release_module();
        abort_unless_released(user_context, buf, kLeftDeviceSet);
        return result ? halide_error_code_device_free_failed : 0;
    }
    if (buf->host != nullptr) {
        halide_free(user_context, buf->host);
        buf->host = nullptr;
    }
    buf->set_device_dirty(false);
    return 0;
}

}  // namespace harena::override_detail
