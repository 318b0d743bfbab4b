// Device memory for a planned pipeline's argument buffers: its inputs, its
// outputs and buffers compiled into it. Halide allocates it inside the
// pipeline (halide_copy_to_device of an input, halide_device_malloc of an
// output) and the caller keeps it after the call, so it must not come from
// the call's frame, which pops when the pipeline returns. The pass routes
// those calls here; with the calling thread's scopes suspended, the override
// (when linked) takes Halide's default path for them.
#include "core/arena.h"
#include "core/errors.h"

using namespace harena::detail;

namespace {

// halide_copy_to_device accepts a NULL interface for a buffer that has one.
const halide_device_interface_t *interface_for(const halide_buffer_t *buf, const halide_device_interface_t *iface) {
    return iface != nullptr ? iface : buf != nullptr ? buf->device_interface :
                                                       nullptr;
}

// An input already on the device through `iface` and not newer on the host:
// halide_copy_to_device would do nothing, after taking the lock Halide holds
// for every copy in the process (its device_copy_mutex). Answered here
// without it, so that threads calling planned pipelines on device-resident
// inputs do not queue on that lock. The flags are read once, atomically: a
// buffer another thread is uploading is host-dirty until its copy is done,
// and then takes Halide's path, which waits for that copy.
bool already_on_device(const halide_buffer_t *buf, const halide_device_interface_t *iface) {
    if (buf == nullptr || buf->device == 0 || buf->device_interface != iface) {
        return false;
    }
    const uint64_t flags = __atomic_load_n(&buf->flags, __ATOMIC_ACQUIRE);
    return (flags & halide_buffer_flag_host_dirty) == 0;
}

int no_interface(void *user_context, const char *function) {
    return report_error(user_context, halide_error_code_no_device_interface,
                        "%s: neither the call nor the buffer names a device interface", function);
}

}  // namespace

extern "C" {

int harena_argument_copy_to_device(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    const halide_device_interface_t *via = interface_for(buf, iface);
    if (via == nullptr) {
        return no_interface(user_context, "harena_argument_copy_to_device");
    }
    if (already_on_device(buf, via)) {
        return 0;
    }
    SuspendScopes suspend;
    return via->copy_to_device(user_context, buf, iface);
}

int harena_argument_device_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    if (iface == nullptr) {
        return no_interface(user_context, "harena_argument_device_malloc");
    }
    SuspendScopes suspend;
    return iface->device_malloc(user_context, buf, iface);
}

int harena_argument_device_and_host_malloc(void *user_context, halide_buffer_t *buf,
                                           const halide_device_interface_t *iface) {
    if (iface == nullptr) {
        return no_interface(user_context, "harena_argument_device_and_host_malloc");
    }
    SuspendScopes suspend;
    return iface->device_and_host_malloc(user_context, buf, iface);
}

}  // extern "C"
