// Creation, destruction and the properties of an arena.
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

int resolve_options(const harena_options *given, const char *function, harena_options *options) {
    harena_options_init(options);
    if (given != nullptr) {
        *options = *given;
    }
    const uint64_t a = options->alignment;
    if (a == 0 || (a & (a - 1)) != 0) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: alignment %llu is not a power of two", function,
                            static_cast<unsigned long long>(a));
    }
    if (options->overflow_policy != HARENA_OVERFLOW_ERROR && options->overflow_policy != HARENA_OVERFLOW_FALLBACK) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: overflow_policy %d is neither HARENA_OVERFLOW_ERROR nor HARENA_OVERFLOW_FALLBACK",
                            function, static_cast<int>(options->overflow_policy));
    }
    if (options->max_frames == 0 || options->max_frames > kMaxFrames) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: max_frames %u is outside [1, %u]; an arena holds at most %u frames", function,
                            options->max_frames, kMaxFrames, kMaxFrames);
    }
    read_environment(*options);
    if (options->grow != 0 && growth == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: a growing arena needs the growth feature, which this program does not link; link "
                            "HalideArena::growth (or HalideArena::runtime, which links every feature)",
                            function);
    }
    if ((options->debug != 0 || options->guard != 0) && checking == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: %s mode needs the checking feature, which this program does not link; link "
                            "HalideArena::checking (or HalideArena::runtime, which links every feature)",
                            function, options->guard != 0 ? "guard" : "debug");
    }
    if (options->guard != 0 && options->guard_bytes == 0) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: guard mode is on but guard_bytes is 0; give each band at least one byte", function);
    }
    return HARENA_OK;
}

// An alignment above the capacity would round the arena up to one
// allocation of the alignment's size: refused rather than grown in silence.
int check_alignment_fits(void *user_context, const char *function, uint64_t capacity, uint64_t alignment) {
    if (alignment <= capacity) {
        return HARENA_OK;
    }
    return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: alignment %llu is above the capacity %s, so the arena could hold only one allocation "
                        "and would be rounded up to %s; choose an alignment of at most the capacity",
                        function, static_cast<unsigned long long>(alignment), bytes_text(capacity).text,
                        bytes_text(alignment).text);
}

int too_large(void *user_context, const char *function, uint64_t capacity) {
    return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: capacity %s is above the %s an arena can hold", function, bytes_text(capacity).text,
                        bytes_text(kMaxCapacity).text);
}

}  // namespace

void read_environment(harena_options &options) {
    const auto on = [](const char *name) {
        const char *value = std::getenv(name);
        return value != nullptr && std::strcmp(value, "1") == 0;
    };
    if (on("HARENA_DEBUG")) {
        options.debug = 1;
    }
    if (on("HARENA_GUARD")) {
        options.guard = 1;
    }
}

harena_arena *new_arena(const halide_device_interface_t *device_interface, const harena_options &options) {
    harena_arena *arena = nullptr;
    try {
        arena = new harena_arena;
        arena->frames.resize(options.max_frames);
        arena->home_before.resize(options.max_frames);
    } catch (const std::bad_alloc &) {
        delete arena;
        return nullptr;
    }
    arena->device_interface = device_interface;
    arena->alignment = options.alignment;
    arena->overflow_policy = options.overflow_policy;
    arena->band_bytes = options.guard != 0 ? round_up(options.guard_bytes, options.alignment) : 0;
    if ((growth != nullptr && !growth->create(*arena, options.grow != 0)) ||
        (host_companion != nullptr && !host_companion->create(*arena)) ||
        (checking != nullptr && !checking->create(*arena, options.debug != 0, options.guard != 0)) ||
        (stream_order != nullptr && device_interface != nullptr && !stream_order->create(*arena)) ||
        (device_interface != nullptr && !arena->slices.set_capacity(kSliceLogCapacity))) {
        delete_arena(arena);
        return nullptr;
    }
    update_watched(*arena);
    return arena;
}

void delete_arena(harena_arena *arena) {
    if (arena->checks != nullptr) {
        checking->destroy(*arena);
    }
    if (arena->growth_state != nullptr) {
        growth->destroy(*arena);
    }
    if (arena->companion_state != nullptr) {
        host_companion->destroy(*arena);
    }
    if (arena->streams_state != nullptr) {
        stream_order->destroy(*arena);
    }
    delete arena;
}

// The last step of creation: from here on other threads may find the arena.
int publish(harena_arena *arena, harena_arena **out, const char *function) {
    if (arena->generation == 0) {
        arena->generation = next_generation();  // regions the caller owns, measuring arenas
    }
    arena->magic = kArenaMagic;
    try {
        register_arena(arena);
    } catch (const std::bad_alloc &) {
        return report_error(arena->user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "%s: out of host memory for the registry of arenas", function);
    }
    *out = arena;
    return HARENA_OK;
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

void harena_options_init(harena_options *options) {
    if (options == nullptr) {
        return;
    }
    options->alignment = HARENA_DEFAULT_ALIGNMENT;
    options->overflow_policy = HARENA_OVERFLOW_ERROR;
    options->debug = 0;
    options->max_frames = 64;
    options->grow = 0;
    options->guard = 0;
    options->guard_bytes = 256;
}

int harena_create(void *user_context, const halide_device_interface_t *device_interface, uint64_t capacity,
                  const harena_options *options, harena_arena **arena) {
    const char *function = "harena_create";
    if (arena == nullptr) {
        return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT, "%s: the output pointer is NULL", function);
    }
    *arena = nullptr;
    if (capacity == 0) {
        return report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT, "%s: capacity is 0 bytes", function);
    }
    harena_options resolved;
    if (int err = resolve_options(options, function, &resolved)) {
        return err;
    }
    if (int err = check_alignment_fits(user_context, function, capacity, resolved.alignment)) {
        return err;
    }
    if (capacity > kMaxCapacity || round_up(capacity, resolved.alignment) > kMaxCapacity) {
        return too_large(user_context, function, capacity);
    }
    harena_arena *a = new_arena(device_interface, resolved);
    if (a == nullptr) {
        return report_error(user_context, HARENA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the arena object",
                            function);
    }
    a->user_context = user_context;
    const uint64_t rounded = round_up(capacity, resolved.alignment);
    int err = device_interface ? device_acquire(*a, rounded) : host_acquire(*a, rounded);
    if (err) {
        delete_arena(a);
        return err;
    }
    if ((err = publish(a, arena, function))) {
        device_interface ? device_release(*a) : host_release(*a);
        delete_arena(a);
        return err;
    }
    return HARENA_OK;
}

int harena_create_from_memory(const halide_device_interface_t *device_interface, uint64_t address, uint64_t size,
                              const harena_options *options, harena_arena **arena) {
    const char *function = "harena_create_from_memory";
    if (arena == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: the output pointer is NULL", function);
    }
    *arena = nullptr;
    if (address == 0) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "%s: the memory address is 0", function);
    }
    if (size != 0 && size - 1 > UINT64_MAX - address) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: %llu bytes at 0x%llx wrap past the end of the address space; pass the region's "
                            "real address and size",
                            function, static_cast<unsigned long long>(size), static_cast<unsigned long long>(address));
    }
    harena_options resolved;
    if (int err = resolve_options(options, function, &resolved)) {
        return err;
    }
    if (resolved.grow) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: an arena over memory the caller owns cannot grow; leave harena_options.grow at 0, "
                            "or let harena_create allocate the arena",
                            function);
    }
    const uint64_t base = round_up(address, resolved.alignment);
    const uint64_t skipped = base - address;
    const uint64_t capacity = size > skipped ? (size - skipped) & ~(resolved.alignment - 1) : 0;
    if (base < address || capacity == 0) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: %llu bytes at 0x%llx hold no %llu-aligned block", function,
                            static_cast<unsigned long long>(size), static_cast<unsigned long long>(address),
                            static_cast<unsigned long long>(resolved.alignment));
    }
    if (capacity > kMaxCapacity) {
        return too_large(nullptr, function, capacity);
    }
    harena_arena *a = new_arena(device_interface, resolved);
    if (a == nullptr) {
        return report_error(nullptr, HARENA_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the arena object",
                            function);
    }
    a->backing = Backing::user;
    a->base = base;
    a->capacity = capacity;
    a->alloc_limit.store(capacity, std::memory_order_relaxed);
    nvtx_attach(*a, address, size);
    if (int err = publish(a, arena, function)) {
        nvtx_detach(*a);
        delete_arena(a);
        return err;
    }
    return HARENA_OK;
}

int harena_destroy(harena_arena *arena) {
    if (int err = check_live(arena, "harena_destroy", nullptr)) {
        return err;
    }
    const uint32_t depth = arena->depth.load(std::memory_order_relaxed);
    const uint32_t attached = arena->attached_scopes.load(std::memory_order_relaxed);
    if (depth != 0 || attached != 0) {
        return report_error(arena->user_context, HARENA_ERROR_ARENA_IN_USE,
                            "harena_destroy: arena %p still has %u frame(s) pushed and %u scope(s) attached; "
                            "end its scopes and pop its frames first (the arena is left alive)",
                            static_cast<void *>(arena), depth, attached);
    }
    if (arena->companion_state != nullptr && host_companion->busy(*arena)) {
        return report_error(arena->user_context, HARENA_ERROR_ARENA_IN_USE,
                            "harena_destroy: the host companion of arena %p still has a planned pipeline's frame "
                            "pushed; let the pipeline return first (the arena is left alive)",
                            static_cast<void *>(arena));
    }
    unregister_arena(arena);
    arena->magic = 0;
    if (arena->companion_state != nullptr) {
        host_companion->release(*arena);
    }
    arena->cuda.release_stream();
    switch (arena->backing) {
    case Backing::host:
        host_release(*arena);
        break;
    case Backing::device:
        device_release(*arena);
        break;
    case Backing::user:
        nvtx_detach(*arena);
        break;
    case Backing::none:
        break;
    }
    delete_arena(arena);
    return HARENA_OK;
}

int harena_get_info(const harena_arena *arena, harena_info *info) {
    if (int err = check_live(arena, "harena_get_info", nullptr)) {
        return err;
    }
    if (info == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_get_info: info is NULL");
    }
    info->device_interface = arena->device_interface;
    info->base = arena->base;
    info->capacity = arena->capacity;
    info->alignment = arena->alignment;
    info->overflow_policy = arena->overflow_policy;
    info->debug = arena->checks != nullptr && checking->debug(*arena) ? 1 : 0;
    info->owns_memory = arena->backing == Backing::host || arena->backing == Backing::device ? 1 : 0;
    return HARENA_OK;
}

}  // extern "C"
