// What the benchmark runs: each app at a few sizes, as a sequence of steps
// (one per run, repeated batch after batch), with every step's arguments
// prepared up front for each CUDA build of the app's pipeline.
#pragma once

#include "device_views.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace bench {

// An AOT pipeline's argv entry point: pointers to each argument in order.
using Entry = int (*)(void **);

// The three CUDA builds of one app and what its plan reports.
struct App {
    std::string name;
    Entry plain = nullptr;    // as the app builds it
    Entry planned = nullptr;  // with the arena feature; first argument the harena_arena *
    Entry ideal = nullptr;    // every intermediate an output after the app's outputs
    const halide_filter_metadata_t *(*planned_metadata)() = nullptr;
    const halide_filter_metadata_t *(*ideal_metadata)() = nullptr;
    uint64_t arena_bytes = 0;
    uint64_t lower_bound = 0;
    bool capturable = false;  // the plan says one call captured as a CUDA graph replays it
    const char *plan_json = "";
};

// One run's arguments. Not movable: the argument vectors point into it.
struct Step {
    std::string label;
    std::vector<std::unique_ptr<DeviceView>> views;
    DeviceView *output = nullptr;  // what the output check reads back
    int32_t int_scalar = 0;
    float float_scalar = 0.0f;
    std::vector<void *> plain_args, planned_args, ideal_args;
    // The planned call as the graph cache sees it (see graph_calls.h): the
    // bytes it keys on besides the buffers (the planned entry point and every
    // scalar argument's value) and the buffer arguments, in order.
    std::vector<char> graph_key;
    std::vector<halide_buffer_t *> graph_buffers;
};

struct Workload {
    const App *app = nullptr;
    std::string size;        // e.g. "512x512" or "k varies 1..8192"
    bool varies = false;     // not the same size on every run
    int distinct_sizes = 1;  // in the sequence: whether a cache of graphs can hold them all
    std::vector<std::unique_ptr<Step>> steps;
    std::vector<std::unique_ptr<DeviceBlock>> memory;  // what the views point into
    uint64_t ideal_bytes = 0;                          // preallocated intermediates
    // The planned build's first argument: the plan regime's arena, the graph
    // regime's while that is active (regimes.cpp).
    void *arena = nullptr;
};

// A workload and how to build it (device memory is allocated only then).
struct WorkloadSpec {
    std::string app;
    std::string size;
    bool launch_bound = false;  // fixed size, kernels too short to hide launch and allocation costs
    std::function<std::unique_ptr<Workload>()> make;
};

// The benchmark's workloads in the order they run; each seeded.
std::vector<WorkloadSpec> workload_specs();

}  // namespace bench
