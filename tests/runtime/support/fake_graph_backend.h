// A stand-in for the CUDA graph driver calls, for the graph cache's tests: a
// "kernel" launched while the stream is captured is recorded in the graph
// instead of run, and a graph launch runs what it recorded.
#pragma once

#include <functional>
#include <vector>

#include "HalideRuntime.h"
#include "host_arena.h"

namespace harena_test {

// The stand-in driver.
struct FakeGraph {
    std::vector<std::function<void()>> kernels;
    std::vector<const void *> copy_sources;  // host memory its copies read, at launch
};
struct FakeDriver {
    bool capturing = false;
    bool fail_end = false;  // the next end_capture reports an invalidated capture
    FakeGraph *recording = nullptr;
    int graphs_made = 0, graphs_destroyed = 0, launches = 0;
    // Graph launches queued rather than run, until a synchronize: a GPU
    // that has not finished them yet.
    bool defer_launches = false;
    std::vector<const FakeGraph *> queued;
    int synchronizes = 0;
    // The replay signal (replay_signal.h): whether it can be made, and its
    // count and word, one fake allocation each.
    bool fail_signal_create = false;
    int signals_made = 0, signals_destroyed = 0;
};

extern FakeDriver fake;

// Runs `kernel`, or records it in the graph being captured.
void launch_kernel(std::function<void()> kernel);

// A host-to-device copy: captured, it reads `src` when the graph is launched.
void launch_copy(float *dst, const float *src);

// Device memory stands in as host memory; the buffers are dense floats.
struct DeviceFloat {
    DeviceFloat() {
        dim = halide_dimension_t{0, 1, 1, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 1;
        buf.dim = &dim;
        buf.device = reinterpret_cast<uint64_t>(&value);
        buf.device_interface = harena_test::dummy_interface();
    }
    float value = 0;
    halide_dimension_t dim;
    halide_buffer_t buf{};
};

// The stand-in backend for as long as it lives. A fixture holds one before
// its cache, so that the cache's graphs, destroyed with it, go back to the
// stand-in (members are destroyed in the reverse order of their declaration).
struct FakeBackendInstalled {
    FakeBackendInstalled();
    ~FakeBackendInstalled();
    FakeBackendInstalled(const FakeBackendInstalled &) = delete;
    FakeBackendInstalled &operator=(const FakeBackendInstalled &) = delete;
};

}  // namespace harena_test
