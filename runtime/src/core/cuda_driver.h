// The CUDA driver functions the runtime calls itself (streams, graph capture
// and replay), looked up in libcuda at run time (harena_libcuda.h).
#pragma once

#include "harena_libcuda.h"

namespace harena::detail {

// The functions the runtime calls itself (streams, events, graph capture and
// replay).
struct CudaDriver {
    PFN_cuInit_v2000 init = nullptr;
    PFN_cuDeviceGetCount_v2000 device_count = nullptr;
    PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
    // Absent before CUDA 12.0 (context_key() falls back to the address).
    PFN_cuCtxGetId_v12000 ctx_get_id = nullptr;
    PFN_cuCtxPushCurrent_v4000 ctx_push = nullptr;
    PFN_cuCtxPopCurrent_v4000 ctx_pop = nullptr;
    PFN_cuCtxSynchronize_v2000 ctx_synchronize = nullptr;
    PFN_cuStreamCreate_v2000 stream_create = nullptr;
    PFN_cuStreamDestroy_v4000 stream_destroy = nullptr;
    PFN_cuStreamSynchronize_v2000 stream_synchronize = nullptr;
    PFN_cuStreamBeginCapture_v10010 begin_capture = nullptr;
    PFN_cuStreamEndCapture_v10000 end_capture = nullptr;
    PFN_cuGraphInstantiateWithFlags_v11040 graph_instantiate = nullptr;
    PFN_cuGraphLaunch_v10000 graph_launch = nullptr;
    PFN_cuGraphExecDestroy_v10000 graph_exec_destroy = nullptr;
    PFN_cuGraphDestroy_v10000 graph_destroy = nullptr;
    // The graph cache's completion word (graph/replay_signal.h).
    PFN_cuModuleLoadData_v2000 module_load_data = nullptr;
    PFN_cuModuleUnload_v2000 module_unload = nullptr;
    PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
    PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
    PFN_cuMemAlloc_v3020 mem_alloc = nullptr;
    PFN_cuMemFree_v3020 mem_free = nullptr;
    PFN_cuMemsetD8Async_v3020 memset_d8_async = nullptr;
    PFN_cuMemHostAlloc_v2020 mem_host_alloc = nullptr;
    PFN_cuMemFreeHost_v2000 mem_free_host = nullptr;
    PFN_cuMemHostGetDevicePointer_v3020 mem_host_get_device_pointer = nullptr;
    // Stream order across streams (streams/events.cpp).
    PFN_cuStreamGetCtx_v9020 stream_get_ctx = nullptr;
    PFN_cuEventCreate_v2000 event_create = nullptr;
    PFN_cuEventDestroy_v4000 event_destroy = nullptr;
    PFN_cuEventRecord_v2000 event_record = nullptr;
    PFN_cuStreamWaitEvent_v3020 stream_wait_event = nullptr;
    // Whether memory comes from a CUDA memory pool (nvtx/regions.cpp), and
    // which allocation an address lies in (graph/concurrent_kernels.cpp).
    PFN_cuPointerGetAttribute_v4000 pointer_get_attribute = nullptr;
    // A captured graph's nodes and edges (graph/concurrent_kernels.cpp).
    PFN_cuGraphGetNodes_v10000 graph_get_nodes = nullptr;
    PFN_cuGraphGetEdges_v10000 graph_get_edges = nullptr;
    PFN_cuGraphNodeGetType_v10000 graph_node_get_type = nullptr;
    PFN_cuGraphKernelNodeGetParams_v12000 graph_kernel_node_get_params = nullptr;
    PFN_cuGraphAddDependencies_v10000 graph_add_dependencies = nullptr;
    PFN_cuGraphRemoveDependencies_v10000 graph_remove_dependencies = nullptr;
    // HARENA_GRAPH_DOT (graph/graph_dump.cpp).
    PFN_cuGraphDebugDotPrint_v11030 graph_debug_dot_print = nullptr;

    bool has_streams() const {
        return ctx_push && ctx_pop && stream_create && stream_destroy && stream_synchronize;
    }
    bool has_graphs() const {
        return begin_capture && end_capture && graph_instantiate && graph_launch && graph_exec_destroy && graph_destroy;
    }
    bool has_events() const {
        return ctx_push && ctx_pop && ctx_get_current && ctx_synchronize && stream_get_ctx && event_create &&
               event_destroy && event_record && stream_wait_event;
    }
    bool has_graph_editing() const {
        return graph_get_nodes && graph_get_edges && graph_node_get_type && graph_kernel_node_get_params &&
               graph_add_dependencies && graph_remove_dependencies && pointer_get_attribute && ctx_get_current;
    }
    bool has_signals() const {
        return module_load_data && module_unload && module_get_function && launch_kernel && mem_alloc && mem_free &&
               memset_d8_async && mem_host_alloc && mem_free_host && mem_host_get_device_pointer;
    }
};

// Null where libcuda cannot be loaded.
const CudaDriver *cuda_driver();

// A key that names `ctx` for the life of the process: its id where the
// driver has cuCtxGetId (CUDA 12), else its address (which a context
// created after it was destroyed may take).
uint64_t context_key(CUcontext ctx);

}  // namespace harena::detail
