#include "regimes.h"

#include <algorithm>

#include "driver.h"

#include "HalideRuntimeCuda.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {
namespace {

void check(int result, const char *what, const Workload &w, const Step *step = nullptr) {
    if (result != 0) {
        std::fprintf(stderr, "harena-gpu-bench: %s failed (%d) for %s %s%s%s: %s\n", what, result,
                     w.app->name.c_str(), w.size.c_str(), step != nullptr ? " at " : "",
                     step != nullptr ? step->label.c_str() : "", harena_last_error());
        std::exit(1);
    }
}

// Empties Halide's allocation cache (cuMemFree of every cached block).
void flush_halide_cache() {
    halide_reuse_device_allocations(nullptr, false);
    halide_reuse_device_allocations(nullptr, true);
}

// Arenas are created and destroyed with Halide's cache off, so that their
// memory is exactly their capacity and goes straight back to the driver.
harena_arena *create_arena(uint64_t capacity, const Workload &w) {
    halide_reuse_device_allocations(nullptr, false);
    harena_arena *arena = nullptr;
    check(harena_create(nullptr, halide_cuda_device_interface(), capacity, nullptr, &arena), "harena_create", w);
    halide_reuse_device_allocations(nullptr, true);
    return arena;
}

void destroy_arena(harena_arena *arena) {
    halide_reuse_device_allocations(nullptr, false);
    (void)harena_destroy(arena);
    halide_reuse_device_allocations(nullptr, true);
}

uint64_t high_water(const harena_arena *arena) {
    harena_stats stats;
    harena_get_stats(arena, &stats);
    return stats.high_water;
}

void run_in_scope(harena_arena *arena, const Step &step, const Workload &w) {
    harena_scope scope;
    check(harena_scope_begin(&scope, arena), "harena_scope_begin", w);
    const int result = w.app->plain(const_cast<void **>(step.plain_args.data()));
    check(harena_scope_end(&scope), "harena_scope_end", w);
    check(result, "the pipeline in an arena scope", w, &step);
}

// The override's arena sized to what the workload's sequence needs:
// measured by running the sequence once in an arena that surely suffices.
harena_arena *calibrated_override_arena(Workload &w) {
    harena_arena *scratch = create_arena(sum_of_worst_cases(w.app->plan_json), w);
    for (const auto &step : w.steps) {
        run_in_scope(scratch, *step, w);
    }
    synchronize();
    const uint64_t needed = high_water(scratch);
    destroy_arena(scratch);
    return create_arena(needed, w);
}

// The planned pipeline's arena sized for this workload, as a program that
// knows its sizes sizes it: each step asks the pipeline, through a measuring
// arena, how many bytes its arguments need (no stage runs); the largest wins.
harena_arena *measured_plan_arena(Workload &w) {
    harena_arena *measuring = nullptr;
    check(harena_create_measuring(&measuring), "harena_create_measuring", w);
    w.arena = measuring;
    uint64_t needed = 0;
    for (const auto &step : w.steps) {
        const int code = w.app->planned(const_cast<void **>(step->planned_args.data()));
        if (code != HARENA_MEASURED) {
            check(code, "measuring the planned pipeline", w, step.get());
        }
        uint64_t bytes = 0;
        check(harena_measured_bytes(measuring, &bytes, nullptr), "harena_measured_bytes", w);
        needed = std::max(needed, bytes);
    }
    w.arena = nullptr;
    check(harena_destroy(measuring), "harena_destroy", w);
    return create_arena(needed, w);
}

}  // namespace

uint64_t sum_of_worst_cases(const char *plan_json) {
    const char *key = "\"worst_bytes\": ";
    uint64_t sum = 0;
    for (const char *p = std::strstr(plan_json, key); p != nullptr; p = std::strstr(p + 1, key)) {
        sum += std::strtoull(p + std::strlen(key), nullptr, 10) + 256;
    }
    return sum;
}

Regimes::Regimes(Workload &workload)
    : workload_(workload) {
    override_arena_ = calibrated_override_arena(workload_);
    plan_arena_ = measured_plan_arena(workload_);
    workload_.arena = plan_arena_;
    // The same capacity as the plan's: the graph regime runs the same
    // planned calls, captured or not.
    harena_info info;
    harena_get_info(plan_arena_, &info);
    graph_arena_ = create_arena(info.capacity, workload_);
    graphs_ = std::make_unique<GraphCalls>(graph_arena_, kGraphCapacity);
}

Regimes::~Regimes() {
    synchronize();
    graphs_.reset();  // the graphs before the arena their kernels point into
    destroy_arena(graph_arena_);
    destroy_arena(override_arena_);
    destroy_arena(plan_arena_);
    workload_.arena = nullptr;
}

void Regimes::activate(Regime regime) {
    active_ = regime;
    synchronize();
    flush_halide_cache();
    switch (active_) {
    case Regime::reuse_off:
        halide_reuse_device_allocations(nullptr, false);
        break;
    case Regime::malloc_async:
        // Every allocation must reach the pool, so Halide's cache is off.
        halide_reuse_device_allocations(nullptr, false);
        reset_pool();
        use_async_pool(true);
        break;
    case Regime::arena_graph:
        // The planned build's first argument is &workload.arena: while the
        // graph regime is active it is the graph arena, so that any planned
        // call made through the step's arguments runs where the graphs do.
        arena_before_graphs_ = workload_.arena;
        workload_.arena = graph_arena_;
        break;
    case Regime::halide_default:
    case Regime::arena_override:
    case Regime::arena_plan:
    case Regime::override_graph:
    case Regime::ideal:
        break;
    }
    driver_baseline_ = driver_bytes_held();
    reset_driver_bytes_peak();
}

void Regimes::deactivate() {
    // cuCtxSynchronize: also waits for the graph arena's stream.
    synchronize();
    if (active_ == Regime::malloc_async) {
        use_async_pool(false);
        reset_pool();
    }
    if (active_ == Regime::arena_graph) {
        workload_.arena = arena_before_graphs_;
    }
    halide_reuse_device_allocations(nullptr, true);
}

void Regimes::run(const Step &step) {
    switch (active_) {
    case Regime::reuse_off:
    case Regime::halide_default:
    case Regime::malloc_async:
        check(workload_.app->plain(const_cast<void **>(step.plain_args.data())), "the pipeline", workload_, &step);
        break;
    case Regime::arena_override:
        run_in_scope(override_arena_, step, workload_);
        break;
    case Regime::arena_plan:
        check(workload_.app->planned(const_cast<void **>(step.planned_args.data())), "the planned pipeline",
              workload_, &step);
        break;
    case Regime::arena_graph:
        check(graphs_->run(*workload_.app, step), "the planned pipeline through the graph cache", workload_, &step);
        break;
    case Regime::ideal:
        check(workload_.app->ideal(const_cast<void **>(step.ideal_args.data())), "the ideal pipeline", workload_,
              &step);
        break;
    case Regime::override_graph:
        check(HARENA_ERROR_INVALID_ARGUMENT, "the override-graph regime (harena-corpus-bench runs it, not this one)",
              workload_, &step);
        break;
    }
}

MemoryUse Regimes::memory() const {
    switch (active_) {
    case Regime::reuse_off:
    case Regime::halide_default:
        return MemoryUse{driver_bytes_peak() - driver_baseline_, 0};
    case Regime::malloc_async: {
        const PoolUsage pool = pool_usage();
        return MemoryUse{pool.reserved_high, pool.used_high};
    }
    case Regime::arena_override:
    case Regime::arena_plan:
    case Regime::arena_graph: {
        const harena_arena *arena = active_ == Regime::arena_plan ? plan_arena_ : active_ == Regime::arena_graph ? graph_arena_ :
                                                                                                                   override_arena_;
        harena_info info;
        harena_get_info(arena, &info);
        return MemoryUse{info.capacity, high_water(arena)};
    }
    case Regime::ideal:
        return MemoryUse{workload_.ideal_bytes, workload_.ideal_bytes};
    case Regime::override_graph:
        break;  // not run here (run() refuses it)
    }
    return MemoryUse{};
}

harena_graph_stats Regimes::graph_stats() const {
    return graphs_->stats();
}

}  // namespace bench
