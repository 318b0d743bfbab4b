#include "thread_worker.h"

#include "driver.h"
#include "regimes.h"
#include "thread_contexts.h"

#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"
#include "harena/cuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bench {

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "harena-threads-bench: %s failed (%d): %s\n", what, result, harena_last_error());
        std::exit(1);
    }
}

Worker::Worker(const ThreadWorkloadSpec &spec, ThreadRegime regime, void *context)
    : context_(context), regime_(regime.regime) {
    ThreadDevice on_device(context_, nullptr);  // the workload's buffers on the worker's GPU
    workload_ = spec.make();
    switch (regime_) {
    case Regime::halide_default:
        if (regime.stream_per_thread) {
            // An arena only for its stream: non-blocking, in the worker's context.
            arena_ = make_arena(1 << 16);
            harena_cuda_binding binding;
            check(harena_get_cuda_binding(arena_.get(), &binding), "harena_get_cuda_binding");
            stream_ = binding.stream;
        }
        break;
    case Regime::arena_override:
        arena_ = make_arena(workload_->override_bytes());
        break;
    case Regime::arena_plan:
        arena_ = make_arena(planned_bytes());
        break;
    case Regime::arena_graph:
        arena_ = make_arena(planned_bytes());
        check(harena_graph_cache_create(arena_.get(), kGraphCapacity, &graphs_), "harena_graph_cache_create");
        break;
    default:
        std::fprintf(stderr, "harena-threads-bench: no threaded form of regime %s\n", regime_name(regime_));
        std::exit(2);
    }
}

Worker::~Worker() {
    ThreadDevice on_device(context_, nullptr);  // buffers freed in the context they came from
    if (graphs_ != nullptr) {
        (void)harena_graph_cache_destroy(graphs_);  // the graphs before the arena their kernels point into
    }
    arena_.reset();
    workload_.reset();
}

void Worker::call(size_t i) {
    i %= workload_->steps();
    void *user_context = nullptr;
    int result = 0;
    switch (regime_) {
    case Regime::arena_override: {
        harena_scope scope;
        check(harena_scope_begin(&scope, arena_.get()), "harena_scope_begin");
        result = workload_->plain(i);
        check(harena_scope_end(&scope), "harena_scope_end");
        break;
    }
    case Regime::arena_plan:
        user_context = arena_.get();
        result = workload_->planned(i, arena_.get());
        break;
    case Regime::arena_graph:
        user_context = arena_.get();
        result = workload_->through_graphs(i, graphs_);
        break;
    default:  // Halide's default, on its stream or the thread's
        result = workload_->plain(i);
        break;
    }
    check(result, "the pipeline");
    // The request waits for its result: a call through the graph cache with
    // harena_graph_wait (a replay's own completion signal), another call made
    // with an arena on the arena's stream (harena_cuda_synchronize); the
    // others as a Halide program waits.
    if (graphs_ != nullptr) {
        check(harena_graph_wait(graphs_), "harena_graph_wait");
    } else if (user_context != nullptr) {
        check(harena_cuda_synchronize(arena_.get()), "harena_cuda_synchronize");
    } else {
        check(workload_->sync(i, user_context), "halide_device_sync");
    }
}

void Worker::bind_thread() const {
    bind_thread_device(context_, stream_);
    make_context_current(context_);
}

std::vector<uint8_t> Worker::fresh_output(size_t i) {
    workload_->poison(i);
    check(workload_->sync(i, nullptr), "halide_device_sync");
    call(i);
    return workload_->output(i);
}

Worker::ArenaPtr Worker::make_arena(uint64_t bytes) const {
    harena_arena *arena = nullptr;
    if (context_ != nullptr) {
        // Bound to the GPU's context, with a stream of its own made there.
        harena_cuda_binding binding{};
        binding.context = context_;
        check(harena_create_cuda(halide_cuda_device_interface(), &binding, bytes, nullptr, &arena),
              "harena_create_cuda");
    } else {
        check(harena_create(nullptr, halide_cuda_device_interface(), bytes, nullptr, &arena), "harena_create");
        if (regime_ != Regime::arena_override) {
            check(harena_create_cuda_stream(arena), "harena_create_cuda_stream");
        }
    }
    return {arena, harena_destroy};
}

uint64_t Worker::planned_bytes() {
    uint64_t most = 0;
    for (size_t i = 0; i < workload_->steps(); i++) {
        most = std::max(most, harena::measure([&](void *arena) {
                            return workload_->planned(i, static_cast<harena_arena *>(arena));
                        }));
    }
    return std::max<uint64_t>(most, 1);
}

}  // namespace bench
