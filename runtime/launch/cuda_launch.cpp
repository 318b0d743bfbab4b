// Halide's kernel-launch entry points without a process-wide lock. Halide's
// own (src/runtime/cuda.cpp) look every launch's module up in one compilation
// cache behind one mutex, in initialize_kernels, run and finalize_kernels, and
// ask the driver for the function by name at every launch; threads calling
// pipelines at once queue there. A strong definition replaces Halide's weak
// one for every call of the program, so this is a complete implementation:
//  - the state variable holds the pipeline's ModuleSource; its module per
//    context is loaded once and then read without a lock (module_table.h);
//  - functions are cached per module by the address of their name;
//  - the context comes from halide_cuda_acquire_context and the stream from
//    halide_cuda_get_stream, as in Halide's runtime, so the arena's binding
//    (cuda_stream.cpp) and a program's own hooks apply unchanged; the context
//    is pushed only where it is not already current;
//  - modules stay loaded for the life of the process (Halide unloads its own
//    at exit or halide_cuda_device_release); a context destroyed and another
//    created later are told apart by cuCtxGetId, so a stale module is never
//    used.
#include "core/cuda_driver.h"
#include "current_context.h"
#include "core/errors.h"
#include "launch_abi.h"
#include "launch_driver.h"

#include <cstdlib>

using namespace harena::detail;
using namespace harena::detail::launch;

namespace {

int launch_error(void *user_context, int err, const char *what) {
    const char *name = nullptr;
    const LaunchDriver *d = launch_driver();
    if (d != nullptr && d->error_name != nullptr) {
        (void)d->error_name(static_cast<CUresult>(err), &name);
    }
    return report_error(user_context, err, "CUDA: %s failed: %s (%d)", what, name != nullptr ? name : "error", err);
}

// The driver and the context a call runs in, current for the scope (pushed
// where it is not already), acquired and released through Halide's hooks;
// `error` is set, and reported, where either is missing.
class CallContext {
public:
    explicit CallContext(void *user_context)
        : user_context_(user_context), driver_(launch_driver()) {
        if (driver_ == nullptr) {
            error = report_error(user_context, -1, "CUDA: libcuda.so.1 could not be loaded or lacks a launch function");
            return;
        }
        const LaunchDriver &d = *driver_;
        if (halide_cuda_acquire_context == nullptr) {
            error = report_error(user_context, -1, "CUDA: the program has no Halide CUDA runtime to give a context");
            return;
        }
        void *ctx = nullptr;
        if ((error = halide_cuda_acquire_context(user_context, &ctx, true)) != 0) {
            return;
        }
        acquired_ = true;
        context = static_cast<CUcontext>(ctx);
        if (context == nullptr) {
            error = report_error(user_context, -1, "CUDA: no context to launch in");
            return;
        }
        if ((error = current_.make_current(d, context)) != CUDA_SUCCESS) {
            error = launch_error(user_context, error, "cuCtxPushCurrent");
        }
    }
    ~CallContext() {
        current_.restore();  // before the context goes back to Halide's hooks
        if (acquired_ && halide_cuda_release_context != nullptr) {
            (void)halide_cuda_release_context(user_context_);
        }
    }
    CallContext(const CallContext &) = delete;
    CallContext &operator=(const CallContext &) = delete;

    const LaunchDriver &driver() const {
        return *driver_;
    }

    CUcontext context = nullptr;
    int error = 0;

private:
    void *user_context_;
    const LaunchDriver *driver_;
    bool acquired_ = false;
    CurrentContext current_;
};

// The module the thread's last lookup found. Every pipeline call begins with
// initialize_kernels, which looks its module up by the context's key; the
// launches that follow in the same call find it here. A context destroyed
// and another created at the same address between two calls is therefore
// never mistaken for the first.
struct LastModule {
    ModuleSource *source = nullptr;
    CUcontext context = nullptr;
    LoadedModule *module = nullptr;
};
thread_local LastModule last_module;

int find_module(ModuleSource &source, const CallContext &ctx, LoadedModule **module) {
    if (int err = source.module_for(context_key(ctx.context), driver_module_loader(), module)) {
        return err;
    }
    last_module = LastModule{&source, ctx.context, *module};
    return 0;
}

int module_for_launch(ModuleSource &source, const CallContext &ctx, LoadedModule **module) {
    const LastModule &last = last_module;
    if (last.source == &source && last.context == ctx.context) {
        *module = last.module;
        return 0;
    }
    return find_module(source, ctx, module);
}

// Kernel parameters as cuLaunchKernel takes them: a buffer argument becomes
// its device address. Room for the common case on the stack.
class KernelParams {
public:
    KernelParams(size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]) {
        while (arg_sizes[count_] != 0) {
            count_++;
        }
        if (count_ > inline_count) {
            params_ = static_cast<void **>(std::malloc((count_ + 1) * sizeof(void *)));
            handles_ = static_cast<uint64_t *>(std::malloc(count_ * sizeof(uint64_t)));
        }
        if (params_ == nullptr || handles_ == nullptr) {
            failed_ = true;
            return;
        }
        for (size_t i = 0; i < count_; i++) {
            if (arg_is_buffer[i] && arg_sizes[i] == buffer_argument_size) {
                handles_[i] = static_cast<halide_buffer_t *>(args[i])->device;
                params_[i] = &handles_[i];
            } else {
                params_[i] = args[i];
            }
        }
        params_[count_] = nullptr;
    }
    ~KernelParams() {
        if (params_ != inline_params_) {
            std::free(params_);
            std::free(handles_);
        }
    }
    KernelParams(const KernelParams &) = delete;
    KernelParams &operator=(const KernelParams &) = delete;

    // Null where host memory ran out.
    [[nodiscard]] void **params() const {
        return failed_ ? nullptr : params_;
    }

private:
    static constexpr size_t inline_count = 32;
    size_t count_ = 0;
    bool failed_ = false;
    void *inline_params_[inline_count + 1];
    uint64_t inline_handles_[inline_count];
    void **params_ = inline_params_;
    uint64_t *handles_ = inline_handles_;
};

}  // namespace

extern "C" {

int halide_cuda_initialize_kernels(void *user_context, void **state_ptr, const char *src, int size) {
    CallContext ctx(user_context);
    if (ctx.error != 0) {
        return ctx.error;
    }
    ModuleSource *source = source_of(state_ptr, src, size);
    if (source == nullptr) {
        return report_error(user_context, -1, "CUDA: out of host memory for the kernels' module record");
    }
    LoadedModule *module = nullptr;
    if (int err = find_module(*source, ctx, &module)) {
        return launch_error(user_context, err, "cuModuleLoadDataEx");
    }
    return 0;
}

int halide_cuda_run(void *user_context, void *state_ptr, const char *entry_name, int blocks_x, int blocks_y,
                    int blocks_z, int threads_x, int threads_y, int threads_z, int shared_mem_bytes,
                    size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]) {
    CallContext ctx(user_context);
    if (ctx.error != 0) {
        return ctx.error;
    }
    auto *source = static_cast<ModuleSource *>(state_ptr);
    if (source == nullptr) {
        return report_error(user_context, -1, "CUDA: halide_cuda_run before halide_cuda_initialize_kernels");
    }
    LoadedModule *module = nullptr;
    if (int err = module_for_launch(*source, ctx, &module)) {
        return launch_error(user_context, err, "cuModuleLoadDataEx");
    }
    void *function = nullptr;
    if (int err = module->functions.function(module->module, entry_name, driver_module_loader(), &function)) {
        return launch_error(user_context, err, "cuModuleGetFunction");
    }
    KernelParams params(arg_sizes, args, arg_is_buffer);
    if (params.params() == nullptr) {
        return report_error(user_context, -1, "CUDA: out of host memory for kernel %s's parameters", entry_name);
    }
    void *stream = nullptr;
    if (halide_cuda_get_stream != nullptr) {
        if (int err = halide_cuda_get_stream(user_context, ctx.context, &stream)) {
            return report_error(user_context, err, "CUDA: halide_cuda_get_stream failed (%d)", err);
        }
    }
    const int err = ctx.driver().launch_kernel(static_cast<CUfunction>(function), blocks_x, blocks_y, blocks_z, threads_x,
                                               threads_y, threads_z, shared_mem_bytes, static_cast<CUstream>(stream),
                                               params.params(), nullptr);
    return err == CUDA_SUCCESS ? 0 : launch_error(user_context, err, "cuLaunchKernel");
}

// Halide's holds a use count so that device_release leaves a running
// pipeline's module loaded; modules here are never unloaded.
void halide_cuda_finalize_kernels(void *, void *) {
}

}  // extern "C"
