#include "cuda_driver.h"

#include <dlfcn.h>

namespace harena::detail {

void *libcuda() {
    static void *const lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    return lib;
}

void *cuda_symbol_address(const char *name) {
    void *lib = libcuda();
    return lib != nullptr ? dlsym(lib, name) : nullptr;
}

const CudaDriver *cuda_driver() {
    static const CudaDriver *driver = []() -> const CudaDriver * {
        if (libcuda() == nullptr) {
            return nullptr;
        }
        static CudaDriver d;
        d.init = cuda_symbol<PFN_cuInit_v2000>("cuInit");
        d.device_count = cuda_symbol<PFN_cuDeviceGetCount_v2000>("cuDeviceGetCount");
        d.ctx_get_current = cuda_symbol<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent");
        d.ctx_push = cuda_symbol<PFN_cuCtxPushCurrent_v4000>("cuCtxPushCurrent_v2");
        d.ctx_pop = cuda_symbol<PFN_cuCtxPopCurrent_v4000>("cuCtxPopCurrent_v2");
        d.ctx_synchronize = cuda_symbol<PFN_cuCtxSynchronize_v2000>("cuCtxSynchronize");
        d.stream_create = cuda_symbol<PFN_cuStreamCreate_v2000>("cuStreamCreate");
        d.stream_destroy = cuda_symbol<PFN_cuStreamDestroy_v4000>("cuStreamDestroy_v2");
        d.stream_synchronize = cuda_symbol<PFN_cuStreamSynchronize_v2000>("cuStreamSynchronize");
        d.begin_capture = cuda_symbol<PFN_cuStreamBeginCapture_v10010>("cuStreamBeginCapture_v2");
        d.end_capture = cuda_symbol<PFN_cuStreamEndCapture_v10000>("cuStreamEndCapture");
        d.graph_instantiate = cuda_symbol<PFN_cuGraphInstantiateWithFlags_v11040>("cuGraphInstantiateWithFlags");
        d.graph_launch = cuda_symbol<PFN_cuGraphLaunch_v10000>("cuGraphLaunch");
        d.graph_exec_destroy = cuda_symbol<PFN_cuGraphExecDestroy_v10000>("cuGraphExecDestroy");
        d.graph_destroy = cuda_symbol<PFN_cuGraphDestroy_v10000>("cuGraphDestroy");
        return &d;
    }();
    return driver;
}

}  // namespace harena::detail
