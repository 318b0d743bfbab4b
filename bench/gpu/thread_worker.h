// One benchmark thread's buffers, arena and stream for one regime, on one
// GPU: the device's context when the threads are spread over several GPUs
// (the arena then made for that context, harena_create_cuda), Halide's own
// context otherwise.
#pragma once

#include "thread_workloads.h"
#include "threads_report.h"

#include "harena/cuda.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace bench {

// Exits with a message naming `what` when `result` is an error.
void check(int result, const char *what);

class Worker {
public:
    // context nullptr: Halide's own context and arenas made in it.
    Worker(const ThreadWorkloadSpec &spec, ThreadRegime regime, void *context);
    ~Worker();
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // One call of step `i`, waited for.
    void call(size_t i);
    // Binds the calling thread to the worker's context and stream for calls
    // without an arena, until the thread ends, and makes the context current
    // on it, as a CUDA program's thread is after cudaSetDevice.
    void bind_thread() const;
    [[nodiscard]] size_t steps() const {
        return workload_->steps();
    }
    // Step i's output after a call with the output poisoned first.
    [[nodiscard]] std::vector<uint8_t> fresh_output(size_t i);

    std::vector<double> latencies_us;

private:
    using ArenaPtr = std::unique_ptr<harena_arena, int (*)(harena_arena *)>;

    ArenaPtr make_arena(uint64_t bytes) const;
    // What the largest of the workload's planned calls needs, asked of the pipeline.
    uint64_t planned_bytes();

    void *context_;
    Regime regime_;
    std::unique_ptr<ThreadWorkload> workload_;
    ArenaPtr arena_{nullptr, harena_destroy};
    harena_graph_cache *graphs_ = nullptr;
    void *stream_ = nullptr;
};

}  // namespace bench
