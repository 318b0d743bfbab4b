// Device memory through a Halide device interface, obtained once per arena.
// Going through the interface's public entry points (not a backend symbol such
// as halide_cuda_*) keeps the runtime linkable into host-only programs.
#include "core/arena.h"
#include "core/errors.h"

// Halide's allocation cache switch (weak: absent from programs without a
// Halide runtime).
extern "C" int halide_reuse_device_allocations(void *user_context, bool flag) __attribute__((weak));
extern "C" bool halide_can_reuse_device_allocations(void *user_context) __attribute__((weak));

namespace harena::detail {

namespace {

void free_region(harena_arena &arena, halide_buffer_t &region) {
    const halide_device_interface_t *iface = arena.device_interface;
    SuspendScopes suspend;
    BoundRegionScope in_bound_context(arena.cuda.get().context);
    // With a memory checker attached the region was an NVTX heap, and the
    // tool takes the heap's end as the memory's: it must go back to the
    // driver, not to Halide's allocation cache, which would hand it out
    // again unseen by the tool (every access to it then reported).
    const bool bypass_cache = checking != nullptr && checking->tool_attached() &&
                              halide_can_reuse_device_allocations != nullptr &&
                              halide_reuse_device_allocations != nullptr &&
                              halide_can_reuse_device_allocations(arena.user_context);
    if (bypass_cache) {
        (void)halide_reuse_device_allocations(arena.user_context, false);
    }
    // The region is not the arena's any more (unregistered, or replaced), so
    // the override hands this buffer to Halide's default free like any other.
    (void)iface->device_free(arena.user_context, &region);
    if (bypass_cache) {
        (void)halide_reuse_device_allocations(arena.user_context, true);
    }
}

}  // namespace

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
    halide_dimension_t dims[2];
    dims[0] = halide_dimension_t{0, static_cast<int32_t>(arena.alignment), 1, 0};
    dims[1] = halide_dimension_t{0, static_cast<int32_t>(rows), static_cast<int32_t>(arena.alignment), 0};
    halide_buffer_t buf{};
    buf.type = halide_type_t(halide_type_uint, 8, 1);
    buf.dimensions = 2;
    buf.dim = dims;

    int result;
    {
        // With the override linked, iface->device_malloc is the override: an
        // active scope of this thread must not serve the arena's own memory.
        SuspendScopes suspend;
        BoundRegionScope in_bound_context(arena.cuda.get().context);
        result = iface->device_malloc(arena.user_context, &buf, iface);
    }
    if (result != 0 || buf.device == 0) {
        return report_error(arena.user_context, HARENA_ERROR_DEVICE_MALLOC_FAILED,
                            "harena: the device interface could not allocate %s for the arena (error %d)",
                            bytes_text(rows * arena.alignment).text, result);
    }
    // The old region (when growing) is freed only once the arena lies in the
    // new one, so that the override does not take it for one of its slices.
    const bool replacing = arena.backing == Backing::device;
    halide_dimension_t old_dims[2] = {arena.device_dims[0], arena.device_dims[1]};
    halide_buffer_t old = arena.device_buffer;
    old.dim = old_dims;
    arena.backing = Backing::device;
    arena.device_dims[0] = dims[0];
    arena.device_dims[1] = dims[1];
    arena.device_buffer = buf;
    arena.device_buffer.dim = arena.device_dims;
    relocate(arena, round_up(buf.device, arena.alignment), capacity);
    // The whole allocation, of which the arena is a part: a checker then
    // knows every byte of it as the heap's (replacing the old region's heap
    // before that is freed).
    nvtx_attach(arena, buf.device, rows * arena.alignment);
    if (replacing) {
        free_region(arena, old);
    }
    return HARENA_OK;
}

void device_release(harena_arena &arena) {
    nvtx_detach(arena);
    free_region(arena, arena.device_buffer);
}

}  // namespace harena::detail
