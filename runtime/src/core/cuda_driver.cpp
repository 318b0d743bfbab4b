#include "core/cuda_driver.h"

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
        d.ctx_get_id = cuda_symbol<PFN_cuCtxGetId_v12000>("cuCtxGetId");
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
        d.module_load_data = cuda_symbol<PFN_cuModuleLoadData_v2000>("cuModuleLoadData");
        d.module_unload = cuda_symbol<PFN_cuModuleUnload_v2000>("cuModuleUnload");
        d.module_get_function = cuda_symbol<PFN_cuModuleGetFunction_v2000>("cuModuleGetFunction");
        d.launch_kernel = cuda_symbol<PFN_cuLaunchKernel_v4000>("cuLaunchKernel");
        d.mem_alloc = cuda_symbol<PFN_cuMemAlloc_v3020>("cuMemAlloc_v2");
        d.mem_free = cuda_symbol<PFN_cuMemFree_v3020>("cuMemFree_v2");
        d.memset_d8_async = cuda_symbol<PFN_cuMemsetD8Async_v3020>("cuMemsetD8Async");
        d.mem_host_alloc = cuda_symbol<PFN_cuMemHostAlloc_v2020>("cuMemHostAlloc");
        d.mem_free_host = cuda_symbol<PFN_cuMemFreeHost_v2000>("cuMemFreeHost");
        d.mem_host_get_device_pointer = cuda_symbol<PFN_cuMemHostGetDevicePointer_v3020>("cuMemHostGetDevicePointer_v2");
        d.stream_get_ctx = cuda_symbol<PFN_cuStreamGetCtx_v9020>("cuStreamGetCtx");
        d.event_create = cuda_symbol<PFN_cuEventCreate_v2000>("cuEventCreate");
        d.event_destroy = cuda_symbol<PFN_cuEventDestroy_v4000>("cuEventDestroy_v2");
        d.event_record = cuda_symbol<PFN_cuEventRecord_v2000>("cuEventRecord");
        d.stream_wait_event = cuda_symbol<PFN_cuStreamWaitEvent_v3020>("cuStreamWaitEvent");
        d.pointer_get_attribute = cuda_symbol<PFN_cuPointerGetAttribute_v4000>("cuPointerGetAttribute");
        d.graph_get_nodes = cuda_symbol<PFN_cuGraphGetNodes_v10000>("cuGraphGetNodes");
        d.graph_get_edges = cuda_symbol<PFN_cuGraphGetEdges_v10000>("cuGraphGetEdges");
        d.graph_node_get_type = cuda_symbol<PFN_cuGraphNodeGetType_v10000>("cuGraphNodeGetType");
        d.graph_kernel_node_get_params =
            cuda_symbol<PFN_cuGraphKernelNodeGetParams_v12000>("cuGraphKernelNodeGetParams_v2");
        d.graph_add_dependencies = cuda_symbol<PFN_cuGraphAddDependencies_v10000>("cuGraphAddDependencies");
        d.graph_remove_dependencies = cuda_symbol<PFN_cuGraphRemoveDependencies_v10000>("cuGraphRemoveDependencies");
        d.graph_debug_dot_print = cuda_symbol<PFN_cuGraphDebugDotPrint_v11030>("cuGraphDebugDotPrint");
        return &d;
    }();
    return driver;
}

uint64_t context_key(CUcontext ctx) {
    const CudaDriver *d = cuda_driver();
    unsigned long long id = 0;
    if (d != nullptr && d->ctx_get_id != nullptr && d->ctx_get_id(ctx, &id) == CUDA_SUCCESS) {
        return id;
    }
    return reinterpret_cast<uintptr_t>(ctx);
}

}  // namespace harena::detail
