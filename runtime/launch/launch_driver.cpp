#include "launch_driver.h"
#include "launch_abi.h"

#include "core/cuda_driver.h"
#include "graph/kernel_notes.h"

#include <cstdint>
#include <cstdlib>

namespace harena::detail::launch {

const LaunchDriver *launch_driver() {
    static const LaunchDriver *driver = []() -> const LaunchDriver * {
        static LaunchDriver d;
        d.ctx_get_current = cuda_symbol<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent");
        d.ctx_push = cuda_symbol<PFN_cuCtxPushCurrent_v4000>("cuCtxPushCurrent_v2");
        d.ctx_pop = cuda_symbol<PFN_cuCtxPopCurrent_v4000>("cuCtxPopCurrent_v2");
        d.module_load = cuda_symbol<PFN_cuModuleLoadDataEx_v2010>("cuModuleLoadDataEx");
        d.module_get_function = cuda_symbol<PFN_cuModuleGetFunction_v2000>("cuModuleGetFunction");
        d.launch_kernel = cuda_symbol<PFN_cuLaunchKernel_v4000>("cuLaunchKernel");
        d.error_name = cuda_symbol<PFN_cuGetErrorName_v6000>("cuGetErrorName");
        const bool complete = d.ctx_get_current && d.ctx_push && d.ctx_pop && d.module_load &&
                              d.module_get_function && d.launch_kernel;
        return complete ? &d : nullptr;
    }();
    return driver;
}

namespace {

unsigned max_registers() {
    static const unsigned value = [] {
        const char *set = std::getenv(max_registers_variable);
        return set != nullptr ? static_cast<unsigned>(std::atoi(set)) : default_max_registers;
    }();
    return value;
}

// The context the loader runs in (current).
uint64_t current_context_key() {
    CUcontext ctx = nullptr;
    (void)launch_driver()->ctx_get_current(&ctx);
    return context_key(ctx);
}

// Both note what they load, so that a captured graph can tell what each
// kernel touches (graph/kernel_notes.h).
int load(const char *source, int size, void **module) {
    CUjit_option options[] = {CU_JIT_MAX_REGISTERS};
    void *values[] = {reinterpret_cast<void *>(static_cast<uintptr_t>(max_registers()))};
    const int err = launch_driver()->module_load(reinterpret_cast<CUmodule *>(module), source, 1, options, values);
    if (err == CUDA_SUCCESS) {
        note_kernel_module(current_context_key(), *module, source, size);
    }
    return err;
}

int get_function(void *module, const char *name, void **function) {
    const int err = launch_driver()->module_get_function(reinterpret_cast<CUfunction *>(function),
                                                         static_cast<CUmodule>(module), name);
    if (err == CUDA_SUCCESS) {
        note_kernel_function(current_context_key(), *function, module, name);
    }
    return err;
}

}  // namespace

const ModuleLoader &driver_module_loader() {
    static const ModuleLoader loader{load, get_function};
    return loader;
}

}  // namespace harena::detail::launch
