// The loop behind the instruction counts in runtime-ab-devvm.txt:
//   g++ -O2 -std=c++17 alloc-loop.cpp -I<tree>/runtime/include -isystem /usr/include/halide14 \
//       <build>/runtime/libharena_runtime.a -lpthread -ldl && valgrind --tool=callgrind ./a.out
#include <chrono>
#include <cstdio>
#include "harena/runtime.h"
int main() {
    harena_arena *a = nullptr;
    harena_create(nullptr, nullptr, 64 << 20, nullptr, &a);
    double best = 1e9;
    for (int rep = 0; rep < 1; rep++) {
        harena_frame f{};
        auto t0 = std::chrono::steady_clock::now();
        for (int b = 0; b < 2000; b++) {
            harena_push(a, 0, &f);
            uint64_t x = 0;
            for (int i = 0; i < 1000; i++)
                harena_alloc(a, 200, nullptr, &x);
            harena_pop(a, f);
        }
        double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / 2e6;
        best = ns < best ? ns : best;
    }
    std::printf("%.2f ns per alloc (incl. push/pop per 1000)\n", best);
}
