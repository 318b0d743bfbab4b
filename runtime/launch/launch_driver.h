// The driver functions the launch path calls, from the project's one libcuda
// loader (harena_libcuda.h), and the module loader the table uses.
#pragma once

#include "harena_libcuda.h"
#include "module_table.h"

namespace harena::detail::launch {

struct LaunchDriver {
    PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
    PFN_cuCtxPushCurrent_v4000 ctx_push = nullptr;
    PFN_cuCtxPopCurrent_v4000 ctx_pop = nullptr;
    PFN_cuModuleLoadDataEx_v2010 module_load = nullptr;
    PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
    PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
    PFN_cuGetErrorName_v6000 error_name = nullptr;
};

// Null where libcuda or one of the required functions is missing.
const LaunchDriver *launch_driver();

// Loads modules as Halide does (launch_abi.h) through launch_driver().
const ModuleLoader &driver_module_loader();

}  // namespace harena::detail::launch
