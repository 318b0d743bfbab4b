// An arena bound to a CUDA context from its creation: the way to give each
// GPU of a program its own arena (harena_create_cuda in harena/cuda.h).
#include "arena.h"
#include "errors.h"

using namespace harena::detail;

extern "C" {

int harena_create_cuda(const halide_device_interface_t *device_interface, const harena_cuda_binding *binding,
                       uint64_t capacity, const harena_options *options, harena_arena **arena) {
    const char *function = "harena_create_cuda";
    if (arena == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: the output pointer is NULL", function);
    }
    *arena = nullptr;
    if (binding == nullptr || binding->context == nullptr) {
        return report_error(binding != nullptr ? binding->user_context : nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: the binding has no context; pass the CUcontext of the device the arena is for "
                            "(e.g. from cuDevicePrimaryCtxRetain), or use harena_create for Halide's own context",
                            function);
    }
    if (device_interface == nullptr) {
        return report_error(binding->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: device_interface is NULL; pass halide_cuda_device_interface()", function);
    }
    if (int err = harena_install_cuda_hooks()) {
        return err;
    }
    harena_arena *created = nullptr;
    {
        // The region is allocated in the binding's context: the binding is
        // set only once the arena exists.
        BoundRegionScope in_bound_context(binding->context);
        if (int err = harena_create(binding->user_context, device_interface, capacity, options, &created)) {
            return err;
        }
    }
    int err = harena_set_cuda_binding(created, binding);
    if (err == HARENA_OK && binding->stream == nullptr) {
        err = harena_create_cuda_stream(created);
    }
    if (err != HARENA_OK) {
        (void)harena_destroy(created);
        return err;
    }
    *arena = created;
    return HARENA_OK;
}

}  // extern "C"
