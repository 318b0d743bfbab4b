// What graph capture and replay need from the driver: CUDA's (looked up in
// libcuda), or a stand-in that tests install to exercise the cache's keying
// and fallbacks without a GPU.
#pragma once

#include <string>

#include "graph/replay_signal.h"

namespace harena::detail {

struct GraphBackend {
    // Each returns 0 or a driver error code.
    int (*begin_capture)(void *stream);
    int (*end_capture)(void *stream, void **graph);  // *graph null when the capture was invalidated
    int (*instantiate)(void *graph, void **exec);
    int (*launch)(void *exec, void *stream);
    void (*destroy)(void *graph, void *exec);  // either may be null
    // The completion word a cache's graphs end with (graph/replay_signal.h), in
    // the current context: made (its count zeroed on the stream), its kernel
    // queued on the stream, freed. A signal that failed to be made, or was
    // freed, is left empty (ReplaySignal{}).
    int (*signal_create)(ReplaySignal *signal, void *stream);
    int (*signal_enqueue)(const ReplaySignal &signal, void *stream);
    void (*signal_destroy)(ReplaySignal *signal);
    // Waits for the work queued on a stream (its context current).
    int (*synchronize)(void *stream);
};

// The backend in use: a test's if one is set, else CUDA's; null where libcuda
// is missing or has no graph functions.
const GraphBackend *graph_backend();

// Whether graph_backend() is CUDA's (not a test's stand-in).
bool graph_backend_is_cuda();

// Tests: replaces the backend (null restores CUDA's).
void set_graph_backend(const GraphBackend *backend);

// "cuStreamEndCapture returned CUDA_ERROR_STREAM_CAPTURE_INVALIDATED (901)":
// a driver call's error for a person, named by the driver where it is loaded.
std::string driver_failure(const char *call, int code);

}  // namespace harena::detail
