// The stream and context an arena's planned pipelines run on. Halide 14 asks
// for them through hooks it lets a program replace (halide_set_cuda_get_stream
// and friends); the runtime's hooks answer for arenas that carry a binding and
// hand every other question to the hooks installed before them. Also the
// arena bound to a CUDA context from its creation (harena_create_cuda): the
// way to give each GPU of a program its own arena.
#include <mutex>

#include "core/arena.h"
#include "core/cuda_driver.h"
#include "core/errors.h"
#include "cuda/stream_context.h"

using harena_acquire_context_t = int (*)(void *user_context, void **ctx, bool create);
using harena_release_context_t = int (*)(void *user_context);
using harena_get_stream_t = int (*)(void *user_context, void *ctx, void **stream);

// From the program's Halide CUDA runtime; weak so that the arena runtime links
// into programs without one.
extern "C" harena_acquire_context_t halide_set_cuda_acquire_context(harena_acquire_context_t) __attribute__((weak));
extern "C" harena_release_context_t halide_set_cuda_release_context(harena_release_context_t) __attribute__((weak));
extern "C" harena_get_stream_t halide_set_cuda_get_stream(harena_get_stream_t) __attribute__((weak));

namespace harena::detail {

namespace {

struct PreviousHooks {
    harena_acquire_context_t acquire = nullptr;
    harena_release_context_t release = nullptr;
    harena_get_stream_t get_stream = nullptr;
};
PreviousHooks previous;

// The context of the innermost BoundRegionScope on this thread, or null.
thread_local void *region_context = nullptr;

// The arena of the innermost UnboundCallsOn on this thread, or null.
thread_local harena_arena *unbound_calls_arena = nullptr;

// The arena behind a user_context (checked against the registry: a user's
// own struct is never dereferenced as one), else the arena this thread's
// unbound calls run on, else null.
harena_arena *arena_of(void *user_context) {
    if (user_context != nullptr && is_registered(user_context)) {
        return static_cast<harena_arena *>(user_context);
    }
    return unbound_calls_arena;
}

int acquire_context(void *user_context, void **ctx, bool create) {
    if (region_context != nullptr) {
        *ctx = region_context;
        return 0;
    }
    if (harena_arena *arena = arena_of(user_context)) {
        if (arena->cuda.get().context != nullptr) {
            *ctx = arena->cuda.get().context;
            return 0;
        }
        user_context = arena->cuda.get().user_context;
    }
    return previous.acquire(user_context, ctx, create);
}

int release_context(void *user_context) {
    if (region_context != nullptr) {
        return 0;
    }
    if (harena_arena *arena = arena_of(user_context)) {
        if (arena->cuda.get().context != nullptr) {
            return 0;
        }
        user_context = arena->cuda.get().user_context;
    }
    return previous.release(user_context);
}

int get_stream(void *user_context, void *ctx, void **stream) {
    if (harena_arena *arena = arena_of(user_context)) {
        if (arena->cuda.get().stream != nullptr) {
            *stream = arena->cuda.get().stream;
            return 0;
        }
        user_context = arena->cuda.get().user_context;
    }
    return previous.get_stream(user_context, ctx, stream);
}

int no_cuda_runtime(const char *function) {
    return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: this program has no Halide CUDA runtime (link a pipeline built for a CUDA target)",
                        function);
}

// A stream the runtime made is about to be destroyed: the bytes it last used
// keep an event of its work (core/streams.h).
int retire_own_stream(harena_arena &arena, const char *function) {
    return arena.cuda.owns_stream() ? retire_stream(arena, arena.cuda.stream(), function) : HARENA_OK;
}

int check_idle(const harena_arena &arena, const char *function) {
    if (arena.depth.load(std::memory_order_relaxed) != 0) {
        return report_error(arena.user_context, HARENA_ERROR_ARENA_IN_USE,
                            "%s: arena %p has frames pushed; change its stream between runs", function,
                            static_cast<const void *>(&arena));
    }
    return HARENA_OK;
}

}  // namespace

void *bound_work_context(const CudaBinding &cuda) {
    const harena_cuda_binding &b = cuda.get();
    void *ctx = b.context;
    if (ctx == nullptr && b.user_context != nullptr && previous.acquire != nullptr &&
        previous.acquire(b.user_context, &ctx, false) == 0) {
        (void)previous.release(b.user_context);
    }
    return ctx;
}

UnboundCallsOn::UnboundCallsOn(harena_arena &arena)
    : outer_(unbound_calls_arena) {
    unbound_calls_arena = &arena;
}

UnboundCallsOn::~UnboundCallsOn() {
    unbound_calls_arena = outer_;
}

BoundRegionScope::BoundRegionScope(void *context)
    : outer_(region_context) {
    if (context != nullptr) {
        region_context = context;
    }
}

BoundRegionScope::~BoundRegionScope() {
    region_context = outer_;
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

int harena_install_cuda_hooks(void) {
    if (halide_set_cuda_get_stream == nullptr || halide_set_cuda_acquire_context == nullptr ||
        halide_set_cuda_release_context == nullptr) {
        return no_cuda_runtime("harena_install_cuda_hooks");
    }
    static std::once_flag once;
    std::call_once(once, [] {
        previous.acquire = halide_set_cuda_acquire_context(acquire_context);
        previous.release = halide_set_cuda_release_context(release_context);
        previous.get_stream = halide_set_cuda_get_stream(get_stream);
    });
    return HARENA_OK;
}

int harena_set_cuda_binding(harena_arena *arena, const harena_cuda_binding *binding) {
    const char *function = "harena_set_cuda_binding";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (int err = check_idle(*arena, function)) {
        return err;
    }
    if (int err = retire_own_stream(*arena, function)) {
        return err;
    }
    arena->cuda.set(binding != nullptr ? *binding : harena_cuda_binding{});
    arena->bound_stream = arena->device_interface != nullptr ? arena->cuda.stream() : nullptr;
    if (arena->checks != nullptr) {
        checking->context_bound(*arena);
    }
    return HARENA_OK;
}

int harena_get_cuda_binding(const harena_arena *arena, harena_cuda_binding *binding) {
    if (int err = check_live(arena, "harena_get_cuda_binding", nullptr)) {
        return err;
    }
    if (binding == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "harena_get_cuda_binding: binding is NULL");
    }
    *binding = arena->cuda.get();
    return HARENA_OK;
}

int harena_create_cuda_stream(harena_arena *arena) {
    const char *function = "harena_create_cuda_stream";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (int err = check_idle(*arena, function)) {
        return err;
    }
    if (int err = harena_install_cuda_hooks()) {
        return err;
    }
    const CudaDriver *d = cuda_driver();
    if (d == nullptr || !d->has_streams()) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: the CUDA driver (libcuda) is not loaded or lacks the stream functions", function);
    }
    if (int err = retire_own_stream(*arena, function)) {
        return err;
    }
    arena->cuda.release_stream();
    arena->bound_stream = nullptr;
    // The context the arena's pipelines will run in: the binding's, or what
    // the hooks before the runtime's give (Halide's own context by default).
    void *ctx = nullptr;
    int err = acquire_context(arena, &ctx, true);
    if (err != 0 || ctx == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_DEVICE_MALLOC_FAILED,
                            "%s: no CUDA context to create the stream in (error %d)", function, err);
    }
    CUstream stream = nullptr;
    err = d->ctx_push(static_cast<CUcontext>(ctx));
    if (err == 0) {
        err = d->stream_create(&stream, CU_STREAM_NON_BLOCKING);
        CUcontext popped = nullptr;
        (void)d->ctx_pop(&popped);
    }
    (void)release_context(arena);
    if (err != 0) {
        return report_error(arena->user_context, HARENA_ERROR_DEVICE_MALLOC_FAILED,
                            "%s: cuStreamCreate failed with CUDA error %d", function, err);
    }
    arena->cuda.adopt_stream(stream, ctx);
    arena->bound_stream = arena->device_interface != nullptr ? arena->cuda.stream() : nullptr;
    return HARENA_OK;
}

int harena_retire_stream(harena_arena *arena, void *stream) {
    const char *function = "harena_retire_stream";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (int err = check_stream(*arena, stream, function)) {
        return err;
    }
    return retire_stream(*arena, stream, function);
}

int harena_cuda_synchronize(harena_arena *arena) {
    const char *function = "harena_cuda_synchronize";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (arena->cuda.get().stream == nullptr) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: arena %p has no stream; its pipelines run on Halide's default stream", function,
                            static_cast<void *>(arena));
    }
    const CudaDriver *d = cuda_driver();
    StreamContextScope in_context(arena->cuda);
    const int err = d->stream_synchronize(static_cast<CUstream>(arena->cuda.get().stream));
    return err == 0 ? HARENA_OK : report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT, "%s: cuStreamSynchronize failed with CUDA error %d", function, err);
}

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
