// What a benchmark thread's calls without an arena run on. Halide's own hooks
// give a program one context (on device 0) and the legacy default stream;
// the hooks here give a thread its own stream (the regime "Halide default, a
// stream per thread") and, when the threads are spread over several GPUs,
// its device's context, the way a program that uses several GPUs with Halide
// answers halide_cuda_acquire_context. Installed before the arena runtime's
// hooks, which hand them every call not made with an arena.
#pragma once

#include <vector>

namespace bench {

void install_thread_hooks();

// The calling thread's context and stream from now on (nullptr: Halide's own).
void bind_thread_device(void *context, void *stream);

// The calling thread's context and stream while alive (nullptr: Halide's
// own), restored after.
class ThreadDevice {
public:
    ThreadDevice(void *context, void *stream);
    ~ThreadDevice();
    ThreadDevice(const ThreadDevice &) = delete;
    ThreadDevice &operator=(const ThreadDevice &) = delete;

private:
    void *outer_context_;
    void *outer_stream_;
};

// The primary context of each of the first `count` devices, retained for the
// process; fewer where the machine has fewer or the driver refuses.
std::vector<void *> device_contexts(int count);

}  // namespace bench
