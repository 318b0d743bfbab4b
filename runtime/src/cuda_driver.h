// The CUDA driver functions the runtime calls itself (streams, graph capture
// and replay), looked up in libcuda at run time (harena_libcuda.h).
#pragma once

#include "harena_libcuda.h"

namespace harena::detail {

// The functions the runtime calls itself (streams, graph capture and replay).
struct CudaDriver {
    PFN_cuInit_v2000 init = nullptr;
    PFN_cuDeviceGetCount_v2000 device_count = nullptr;
    PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
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

    bool has_streams() const {
        return ctx_push && ctx_pop && stream_create && stream_destroy && stream_synchronize;
    }
    bool has_graphs() const {
        return begin_capture && end_capture && graph_instantiate && graph_launch && graph_exec_destroy && graph_destroy;
    }
};

// Null where libcuda cannot be loaded.
const CudaDriver *cuda_driver();

}  // namespace harena::detail
