// Device memory through a Halide device interface, obtained once per arena.
// Going through the interface's public entry points (not a backend symbol such
// as halide_cuda_*) keeps the runtime linkable into host-only programs.
#include "arena.h"
#include "errors.h"

namespace harena::detail {

int device_acquire(harena_arena &arena, uint64_t capacity) {
    const halide_device_interface_t *iface = arena.device_interface;
    // A buffer's extents are int32, so the region is described as rows of
    // `alignment` bytes; over-allocating one row lets the base be aligned
    // whatever the interface's own alignment is.
    const uint64_t rows = capacity / arena.alignment + 1;
    if (arena.alignment > INT32_MAX || rows > INT32_MAX) {
        return report_error(arena.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_create: %s with alignment %llu cannot be described as a Halide buffer",
                            bytes_text(capacity).text, static_cast<unsigned long long>(arena.alignment));
    }
    halide_buffer_t &buf = arena.device_buffer;
    buf = halide_buffer_t{};
    arena.device_dims[0] = halide_dimension_t{0, static_cast<int32_t>(arena.alignment), 1, 0};
    arena.device_dims[1] =
        halide_dimension_t{0, static_cast<int32_t>(rows), static_cast<int32_t>(arena.alignment), 0};
    buf.type = halide_type_t(halide_type_uint, 8, 1);
    buf.dimensions = 2;
    buf.dim = arena.device_dims;

    int result;
    {
        // With the override linked, iface->device_malloc is the override: an
        // active scope of this thread must not serve the arena's own memory.
        SuspendScopes suspend;
        result = iface->device_malloc(arena.user_context, &buf, iface);
    }
    if (result != 0 || buf.device == 0) {
        return report_error(arena.user_context, HARENA_ERROR_DEVICE_MALLOC_FAILED,
                            "harena_create: the device interface could not allocate %s for the arena (error %d)",
                            bytes_text(rows * arena.alignment).text, result);
    }
    arena.backing = Backing::device;
    arena.base = round_up(buf.device, arena.alignment);
    arena.capacity = capacity;
    return HARENA_OK;
}

void device_release(harena_arena &arena) {
    const halide_device_interface_t *iface = arena.device_interface;
    SuspendScopes suspend;
    // The arena is already unregistered, so the override hands this buffer to
    // Halide's default free like any other allocation.
    (void)iface->device_free(arena.user_context, &arena.device_buffer);
}

}  // namespace harena::detail
