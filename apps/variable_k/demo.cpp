// The demo: show the arena plan of the variable-k pipeline, then run it for a
// seeded sequence of k (different every run) on the same buffers, new input
// values every run, on the GPU if one is usable, on the CPU otherwise, and
// check every run against the pipeline built without the plan, bit for bit.
#include "HalideBuffer.h"
#include "app_check.h"
#include "HalideRuntimeCuda.h"
#include "harena/runtime.h"

#include "variable_k_cpu.h"
#include "variable_k_cpu_arena.arena.h"
#include "variable_k_cpu_arena.h"
#include "variable_k_cuda.h"
#include "variable_k_cuda_arena.arena.h"
#include "variable_k_cuda_arena.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>

using Halide::Runtime::Buffer;

namespace {

void show_plan(bool gpu) {
    std::cout << "== The arena plan of the " << (gpu ? "CUDA" : "CPU") << " build\n"
              << (gpu ? variable_k_cuda_arena_arena_plan_json : variable_k_cpu_arena_arena_plan_json) << "\n";
}

}  // namespace

int main() {
    const bool gpu = harena_cuda_device_count() > 0;
    show_plan(gpu);
    const halide_device_interface_t *device = gpu ? halide_cuda_device_interface() : nullptr;
    const uint64_t arena_bytes = gpu ? VARIABLE_K_CUDA_ARENA_ARENA_BYTES : VARIABLE_K_CPU_ARENA_ARENA_BYTES;
    std::cout << "== Running on the " << (gpu ? "GPU (CUDA)" : "CPU (no usable CUDA device)") << " with one arena of "
              << arena_bytes << " bytes\n";

    harena_arena *arena = nullptr;
    if (harena_create(nullptr, device, arena_bytes, nullptr, &arena) != 0) {
        std::cerr << "cannot create the arena: " << harena_last_error() << "\n";
        return 1;
    }
    Buffer<float> candidates(16, 20000);
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    candidates.for_each_value([&](float &v) { v = value(rng); });
    std::uniform_int_distribution<int> pick_k(1, 8192);

    int failures = 0;
    const int runs = gpu ? 20 : 6;
    // Buffers allocated once and reused by every call, as Halide's RunGen
    // and most programs call a pipeline; new candidate values every call.
    Buffer<float> expected(32), actual(32);
    for (int run = 0; run < runs; run++) {
        int k = pick_k(rng);
        if (run > 0) {
            candidates.for_each_value([&](float &v) { v = value(rng); });
            candidates.set_host_dirty();
        }
        // Uploaded before the clock starts, so that neither timed call pays for it.
        if (gpu && candidates.copy_to_device(device) != 0) {
            std::cerr << "cannot upload the candidates\n";
            return 1;
        }
        auto t0 = std::chrono::steady_clock::now();
        int e1 = gpu ? variable_k_cuda(candidates, k, expected) : variable_k_cpu(candidates, k, expected);
        auto t1 = std::chrono::steady_clock::now();
        int e2 = gpu ? variable_k_cuda_arena(arena, candidates, k, actual) : variable_k_cpu_arena(arena, candidates, k, actual);
        auto t2 = std::chrono::steady_clock::now();
        bool same = e1 == 0 && e2 == 0 && harena_apps::same_bits(expected, actual);
        failures += !same;
        std::printf("run %2d  k=%4d  unplanned %8.1f us  planned %8.1f us  %s\n", run, k,
                    std::chrono::duration<double, std::micro>(t1 - t0).count(),
                    std::chrono::duration<double, std::micro>(t2 - t1).count(), same ? "bit-identical" : "MISMATCH");
    }
    return harena_apps::finish(arena, device, runs, failures);
}
