// The small-chain app: run the 24-stage chain on small images of a seeded
// sequence of sizes, several calls per size on the same buffers with new
// input values, on the GPU if one is usable and on the CPU otherwise (or with
// --cpu), and check each call of the planned pipeline against the pipeline
// built without the plan, bit for bit.
#include "HalideBuffer.h"
#include "app_check.h"
#include "HalideRuntimeCuda.h"
#include "harena/runtime.h"

#include "small_chain_cpu.h"
#include "small_chain_cpu_arena.arena.h"
#include "small_chain_cpu_arena.h"
#include "small_chain_cuda.h"
#include "small_chain_cuda_arena.arena.h"
#include "small_chain_cuda_arena.h"

#include <cstdio>
#include <random>
#include <string>

using Halide::Runtime::Buffer;

int main(int argc, char **argv) {
    const bool gpu = !(argc > 1 && std::string(argv[1]) == "--cpu") && harena_cuda_device_count() > 0;
    const halide_device_interface_t *device = gpu ? halide_cuda_device_interface() : nullptr;
    const uint64_t arena_bytes = gpu ? SMALL_CHAIN_CUDA_ARENA_ARENA_BYTES : SMALL_CHAIN_CPU_ARENA_ARENA_BYTES;
    const uint64_t lower_bound = gpu ? SMALL_CHAIN_CUDA_ARENA_ARENA_LOWER_BOUND : SMALL_CHAIN_CPU_ARENA_ARENA_LOWER_BOUND;
    std::printf("small chain on the %s: %d planned intermediates, arena %llu bytes (lower bound %llu)\n",
                gpu ? "GPU (CUDA)" : "CPU",
                gpu ? SMALL_CHAIN_CUDA_ARENA_ARENA_BUFFERS : SMALL_CHAIN_CPU_ARENA_ARENA_BUFFERS,
                (unsigned long long)arena_bytes, (unsigned long long)lower_bound);

    harena_arena *arena = nullptr;
    if (harena_create(nullptr, device, arena_bytes, nullptr, &arena) != 0) {
        std::fprintf(stderr, "cannot create the arena: %s\n", harena_last_error());
        return 1;
    }
    // 32 is the narrowest output the GPU schedule's 32-wide tiles accept;
    // 256 is the declared maximum.
    const int runs = 10;
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> extent(32, 256);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);

    // As Halide's RunGen and most programs call a pipeline: buffers
    // allocated once per size and reused, new input values every call.
    int failures = 0;
    for (int run = 0; run < runs; run++) {
        const int w = extent(rng), h = extent(rng);
        Buffer<float> input(w, h), expected(w, h), actual(w, h);
        for (int call = 0; call < harena_apps::kCallsPerSize; call++) {
            input.for_each_value([&](float &v) { v = value(rng); });
            input.set_host_dirty();
            const int e1 = gpu ? small_chain_cuda(input, expected) : small_chain_cpu(input, expected);
            const int e2 =
                gpu ? small_chain_cuda_arena(arena, input, actual) : small_chain_cpu_arena(arena, input, actual);
            const bool ok = e1 == 0 && e2 == 0 && harena_apps::same_bits(expected, actual);
            failures += ok ? 0 : 1;
            std::printf("run %2d  %3d x %3d  call %d  %s\n", run, w, h, call, ok ? "bit-identical" : "MISMATCH");
        }
    }
    return harena_apps::finish(arena, device, runs * harena_apps::kCallsPerSize, failures);
}
