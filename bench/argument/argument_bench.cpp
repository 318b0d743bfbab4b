// harena-argument-bench: one pipeline (generators/argument's unsharp, CUDA,
// at its estimates) called three ways in one process, alternated in rounds:
// unplanned (Halide's allocator and its cache), planned with the arena
// through user_context (harena::Arena), and planned into its `arena` buffer
// argument. Each call is timed to its output's device sync, after warm-up
// calls; prints the median per way and round, and the argument plan over
// the user_context plan. A benchmark, not a test: run it on a GPU machine.
//
// usage: harena-argument-bench [ROUNDS] [CALLS]   (defaults 7 and 400)
#include "argument_unsharp_cuda_arena.h"
#include "argument_unsharp_cuda_context.arena.h"
#include "argument_unsharp_cuda_context.h"
#include "argument_unsharp_cuda_plain.h"
#include "harena/arena.hpp"
#include "median.h"

#include "HalideBuffer.h"
#include "HalideRuntimeCuda.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Halide::Runtime::Buffer;
using harena_bench::median;
using Call = std::function<int()>;

// Median microseconds of `calls` calls, each waited for.
double time_calls(const Call &call, Buffer<float, 3> &output, int calls) {
    std::vector<double> us;
    for (int i = 0; i < calls; i++) {
        auto start = std::chrono::steady_clock::now();
        if (call() != 0 || output.device_sync() != 0) {
            std::fprintf(stderr, "a call failed\n");
            std::exit(1);
        }
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    return median(us);
}

}  // namespace

int main(int argc, char **argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
    const int calls = argc > 2 ? std::atoi(argv[2]) : 400;
    Buffer<float, 3> input(256, 192, 3), output(256, 192, 3);
    input.for_each_element([&](int x, int y, int c) { input(x, y, c) = float((x * 7 + y * 3 + c) % 256) / 255.0f; });
    Buffer<uint8_t, 1> unused(1), arena_argument(ARGUMENT_UNSHARP_CUDA_CONTEXT_ARENA_BYTES_AT_ESTIMATES);
    auto arena = harena::Arena::device(halide_cuda_device_interface(),
                                       ARGUMENT_UNSHARP_CUDA_CONTEXT_ARENA_BYTES_AT_ESTIMATES);
    struct Way {
        const char *name;
        Call call;
        std::vector<double> medians;
    };
    std::vector<Way> ways = {
        {"unplanned", [&] { return argument_unsharp_cuda_plain(input, unused, output); }, {}},
        {"plan, arena in user_context",
         [&] { return argument_unsharp_cuda_context(arena.get(), input, unused, output); },
         {}},
        {"plan, arena argument", [&] { return argument_unsharp_cuda_arena(input, arena_argument, output); }, {}},
    };
    for (Way &w : ways) {
        time_calls(w.call, output, 50);  // warm-up: modules, the input's and the arena's device memory
    }
    std::printf("unsharp 256x192x3, CUDA, %d calls per way and round, median us per call\n", calls);
    std::printf("round  unplanned  user_context  argument  argument/user_context\n");
    for (int r = 0; r < rounds; r++) {
        for (Way &w : ways) {
            w.medians.push_back(time_calls(w.call, output, calls));
        }
        std::printf("%5d  %9.2f  %12.2f  %8.2f  %.3f\n", r, ways[0].medians.back(), ways[1].medians.back(),
                    ways[2].medians.back(), ways[2].medians.back() / ways[1].medians.back());
    }
    const double unplanned = median(ways[0].medians), context = median(ways[1].medians),
                 argument = median(ways[2].medians);
    std::printf("median  %9.2f  %12.2f  %8.2f  %.3f  (argument/unplanned %.3f)\n", unplanned, context, argument,
                argument / context, argument / unplanned);
    return 0;
}
