// harena-override-example: the seed use case. A pipeline compiled with plain
// Halide (select_k_stages) runs in a loop, k changing every run, each run
// inside a harena::Scope; the override linked into this program routes the
// pipeline's allocations into one arena, without recompiling it.
//
//   harena-override-example [--runs N] [--host]
//
// On a machine with a CUDA device the host-cuda build runs against a device
// arena; otherwise (or with --host) the host build runs against a host arena
// through the host heap hook.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "select_k_stages_cuda.h"
#include "select_k_stages_host.h"

namespace {

using Halide::Runtime::Buffer;
using Pipeline = int (*)(halide_buffer_t *, halide_buffer_t *, halide_buffer_t *);

constexpr int kComponents = 64;
constexpr int kMaxK = 24;

struct Run {
    Buffer<int32_t> selected;
};

// Runs every request once; returns the median microseconds per run, device
// synchronized.
double run_all(Pipeline pipeline, Buffer<float> &components, std::vector<Run> &runs, Buffer<float> &output,
               harena::Arena *arena) {
    std::vector<double> times;
    for (Run &r : runs) {
        const auto start = std::chrono::steady_clock::now();
        int result;
        if (arena != nullptr) {
            harena::Scope scope(*arena);
            result = pipeline(components, r.selected, output);
        } else {
            result = pipeline(components, r.selected, output);
        }
        if (result != 0 || output.device_sync() != 0) {
            std::fprintf(stderr, "pipeline failed (%d): %s\n", result, harena_last_error());
            std::exit(1);
        }
        times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// Reads --runs and --host; an exit status where the run ends here.
std::optional<int> parse(int argc, char **argv, int &run_count, bool &force_host) {
    for (int a = 1; a < argc; a++) {
        if (std::strcmp(argv[a], "--runs") == 0 && a + 1 < argc) {
            run_count = std::max(1, std::atoi(argv[++a]));
        } else if (std::strcmp(argv[a], "--host") == 0) {
            force_host = true;
        } else {
            std::fprintf(stderr, "usage: %s [--runs N] [--host]\n", argv[0]);
            return 2;
        }
    }
    return std::nullopt;
}

// `run_count` requests, each selecting k in [1, kMaxK] random components.
std::vector<Run> make_runs(int run_count, std::mt19937 &rng) {
    std::vector<Run> runs(run_count);
    std::uniform_int_distribution<int> pick_k(1, kMaxK), pick_component(0, kComponents - 1);
    for (Run &r : runs) {
        r.selected = Buffer<int32_t>(pick_k(rng));
        r.selected.for_each_value([&](int32_t &i) { i = pick_component(rng); });
    }
    return runs;
}

// Runs every request once without a scope (into `expected`) and once inside
// one (into `output`); the number of runs whose results differ.
int count_mismatches(Pipeline pipeline, Buffer<float> &components, std::vector<Run> &runs, Buffer<float> &expected,
                     Buffer<float> &output, harena::Arena &arena) {
    int mismatches = 0;
    for (Run &r : runs) {
        int result = pipeline(components, r.selected, expected);
        {
            harena::Scope scope(arena);
            result |= pipeline(components, r.selected, output);
        }
        result |= expected.copy_to_host() | output.copy_to_host();
        mismatches += result != 0 || std::memcmp(expected.data(), output.data(), 32 * sizeof(float)) != 0;
    }
    return mismatches;
}

// The timed passes' results.
struct Passes {
    double unscoped_us = 0, scoped_us = 0;
    harena_override_counters unscoped{}, scoped{};
    uint64_t evictions = 0;
};

// A warm-up pass each way, then one timed pass each way.
// The first pass runs in scopes: the inputs' and the output's first device
// copies are made inside a frame, and move out of it when it pops (counted
// as evictions), so later runs find them where Halide's default allocator
// would have put them. Then both ways are warm.
Passes time_passes(Pipeline pipeline, Buffer<float> &components, std::vector<Run> &runs, Buffer<float> &output,
                   harena::Arena &arena) {
    Passes p;
    (void)run_all(pipeline, components, runs, output, &arena);
    p.evictions = arena.stats().evictions;
    (void)run_all(pipeline, components, runs, output, nullptr);
    arena.reset_stats();
    harena_override_reset_counters();

    p.unscoped_us = run_all(pipeline, components, runs, output, nullptr);
    harena_override_get_counters(&p.unscoped);
    harena_override_reset_counters();
    p.scoped_us = run_all(pipeline, components, runs, output, &arena);
    harena_override_get_counters(&p.scoped);
    return p;
}

void print_passes(const Passes &p, bool gpu) {
    const uint64_t unscoped_allocs = gpu ? p.unscoped.device_default_allocations : p.unscoped.heap_default_allocations;
    const uint64_t scoped_arena = gpu ? p.scoped.device_arena_allocations : p.scoped.heap_arena_allocations;
    const uint64_t scoped_default = gpu ? p.scoped.device_default_allocations : p.scoped.heap_default_allocations;
    std::printf("without a scope: median %.1f us per run, %llu allocations by Halide's default allocator\n",
                p.unscoped_us, static_cast<unsigned long long>(unscoped_allocs));
    std::printf("inside a scope:  median %.1f us per run, %llu allocations from the arena, %llu by the default "
                "allocator\n",
                p.scoped_us, static_cast<unsigned long long>(scoped_arena),
                static_cast<unsigned long long>(scoped_default));
    std::printf("first pass: %llu argument buffers moved out of popping frames\n",
                static_cast<unsigned long long>(p.evictions));
}

}  // namespace

int main(int argc, char **argv) {
    int run_count = 1000;
    bool force_host = false;
    if (std::optional<int> status = parse(argc, argv, run_count, force_host)) return *status;
    const bool gpu = !force_host && harena_cuda_device_count() > 0;
    const Pipeline pipeline = gpu ? select_k_stages_cuda : select_k_stages_host;

    Buffer<float> components(7, 7, 16, kComponents);
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    components.for_each_value([&](float &v) { v = value(rng); });
    std::vector<Run> runs = make_runs(run_count, rng);
    Buffer<float> output(32), expected(32);

    // The worst case (k = kMaxK) needs about 84 KiB; 1 MiB leaves room.
    harena::Arena arena = gpu ? harena::Arena::device(halide_cuda_device_interface(), 1 << 20) : harena::Arena::host(1 << 20);
    if (!gpu) {
        harena_install_host_heap_hook();
    }
    std::printf("harena-override-example: %d runs of select_k_stages on the %s, k in [1, %d]\n", run_count,
                gpu ? "GPU (host-cuda build, device arena)" : "CPU (host build, host arena through the heap hook)",
                kMaxK);
    const Passes passes = time_passes(pipeline, components, runs, output, arena);

    // Every request once more each way, new component values first: each
    // scoped result must be bit-identical.
    components.for_each_value([&](float &v) { v = value(rng); });
    components.set_host_dirty();
    const int mismatches = count_mismatches(pipeline, components, runs, expected, output, arena);
    const bool identical = mismatches == 0;

    print_passes(passes, gpu);
    std::printf("results %s (%d of %d runs differ)\n\n%s", identical ? "bit-identical" : "DIFFER", mismatches,
                run_count, arena.stats_string().c_str());
    return identical ? 0 : 1;
}
