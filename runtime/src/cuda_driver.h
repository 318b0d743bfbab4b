// The few CUDA driver functions the runtime calls itself (streams, graph
// capture and replay), looked up in libcuda at run time: no CUDA toolkit at
// build time, and programs without a GPU link and run.
#pragma once

namespace harena::detail {

struct CudaDriver {
    // Driver types are opaque handles here; results are CUresult codes (0: success).
    int (*init)(unsigned flags) = nullptr;
    int (*device_count)(int *count) = nullptr;
    int (*ctx_push)(void *ctx) = nullptr;
    int (*ctx_pop)(void **ctx) = nullptr;
    int (*ctx_synchronize)() = nullptr;
    int (*stream_create)(void **stream, unsigned flags) = nullptr;
    int (*stream_destroy)(void *stream) = nullptr;
    int (*stream_synchronize)(void *stream) = nullptr;
    int (*begin_capture)(void *stream, int mode) = nullptr;
    int (*end_capture)(void *stream, void **graph) = nullptr;
    int (*graph_instantiate)(void **exec, void *graph, unsigned long long flags) = nullptr;
    int (*graph_launch)(void *exec, void *stream) = nullptr;
    int (*graph_exec_destroy)(void *exec) = nullptr;
    int (*graph_destroy)(void *graph) = nullptr;

    bool has_streams() const {
        return ctx_push && ctx_pop && stream_create && stream_destroy && stream_synchronize;
    }
    bool has_graphs() const {
        return begin_capture && end_capture && graph_instantiate && graph_launch && graph_exec_destroy && graph_destroy;
    }
};

// Null where libcuda cannot be loaded.
const CudaDriver *cuda_driver();

// Driver constants used, as cuda.h defines them.
constexpr unsigned kStreamNonBlocking = 1;  // CU_STREAM_NON_BLOCKING
constexpr int kCaptureModeRelaxed = 2;      // CU_STREAM_CAPTURE_MODE_RELAXED

}  // namespace harena::detail
