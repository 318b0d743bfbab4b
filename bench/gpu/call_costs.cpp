// harena-call-costs: where a launch-bound pipeline's host time goes, regime
// by regime. chain4 runs in the Halide default, override, plan and ideal
// regimes (regimes.h), rounds alternating them; every call the pipeline
// makes into the runtime entry points below is timed through the linker's
// --wrap (CMakeLists.txt), so that each regime's time per run splits into
// allocation, free, kernel launch, device copy and scope calls, and the rest
// (the pipeline's own host code and the benchmark loop). Each timed call also
// carries two rdtsc reads, about 10-20 ns, which its column includes.
//   harena-call-costs [--size 64x64|256x256] [--rounds N]
#include "driver.h"
#include "regimes.h"
#include "workloads.h"

#include "HalideRuntimeCuda.h"
#include "harena/runtime.h"
#include "median.h"

#include <x86intrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using harena_bench::median;

namespace {

enum Entry { kMalloc,
             kFree,
             kLaunch,
             kCopy,
             kScope,
             kEntries };
const char *const kEntryNames[kEntries] = {"malloc", "free", "launch", "copy", "scope"};

uint64_t ticks[kEntries];
bool timing = false;

// Adds the ticks between its construction and destruction to an entry's total.
class Timed {
public:
    explicit Timed(Entry entry)
        : entry_(entry), start_(__rdtsc()) {
    }
    ~Timed() {
        if (timing) {
            ticks[entry_] += __rdtsc() - start_;
        }
    }
    Timed(const Timed &) = delete;
    Timed &operator=(const Timed &) = delete;

private:
    Entry entry_;
    uint64_t start_;
};

// Time-stamp counter ticks per ns, against the steady clock over 50 ms.
double ticks_per_ns() {
    const uint64_t t0 = __rdtsc();
    const auto c0 = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - c0 < std::chrono::milliseconds(50)) {
    }
    const uint64_t t1 = __rdtsc();
    return double(t1 - t0) / std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - c0).count();
}

}  // namespace

extern "C" {
int __real_halide_device_malloc(void *, halide_buffer_t *, const halide_device_interface_t *);
int __real_halide_device_free(void *, halide_buffer_t *);
int __real_halide_copy_to_device(void *, halide_buffer_t *, const halide_device_interface_t *);
int __real_halide_cuda_run(void *, void *, const char *, int, int, int, int, int, int, int, size_t *, void **,
                           int8_t *);
int __real_harena_scope_begin(harena_scope *, harena_arena *);
int __real_harena_scope_end(harena_scope *);

int __wrap_halide_device_malloc(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    Timed t(kMalloc);
    return __real_halide_device_malloc(uc, buf, iface);
}
int __wrap_halide_device_free(void *uc, halide_buffer_t *buf) {
    Timed t(kFree);
    return __real_halide_device_free(uc, buf);
}
int __wrap_halide_copy_to_device(void *uc, halide_buffer_t *buf, const halide_device_interface_t *iface) {
    Timed t(kCopy);
    return __real_halide_copy_to_device(uc, buf, iface);
}
int __wrap_halide_cuda_run(void *uc, void *state, const char *entry, int bx, int by, int bz, int tx, int ty, int tz,
                           int shared, size_t *sizes, void **args, int8_t *is_buffer) {
    Timed t(kLaunch);
    return __real_halide_cuda_run(uc, state, entry, bx, by, bz, tx, ty, tz, shared, sizes, args, is_buffer);
}
int __wrap_harena_scope_begin(harena_scope *scope, harena_arena *arena) {
    Timed t(kScope);
    return __real_harena_scope_begin(scope, arena);
}
int __wrap_harena_scope_end(harena_scope *scope) {
    Timed t(kScope);
    return __real_harena_scope_end(scope);
}
}  // extern "C"

int main(int argc, char **argv) {
    std::string size = "64x64";
    int rounds = 15;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--size") == 0) {
            size = argv[i + 1];
        } else if (std::strcmp(argv[i], "--rounds") == 0) {
            rounds = std::max(1, std::atoi(argv[i + 1]));
        }
    }
    if (harena_cuda_device_count() == 0) {
        std::printf("no usable CUDA device\n");
        return 0;
    }
    if (!bench::driver_init() || harena_install_cuda_hooks() != 0) {
        std::fprintf(stderr, "harena-call-costs: %s\n", harena_last_error());
        return 1;
    }
    std::unique_ptr<bench::Workload> workload;
    for (const bench::WorkloadSpec &spec : bench::workload_specs()) {
        if (spec.app == "chain4" && spec.size == size) {
            workload = spec.make();
        }
    }
    if (!workload) {
        std::fprintf(stderr, "harena-call-costs: chain4 has no size %s (64x64 or 256x256)\n", size.c_str());
        return 2;
    }
    bench::Regimes regimes(*workload);
    const bench::Regime measured[] = {bench::Regime::halide_default, bench::Regime::arena_override,
                                      bench::Regime::arena_plan, bench::Regime::ideal};
    constexpr int kMeasured = 4;
    constexpr int kRuns = 2000;
    const double per_ns = ticks_per_ns();
    std::vector<double> total[kMeasured], part[kMeasured][kEntries];
    const bench::Step &step = *workload->steps.front();
    for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < kMeasured; k++) {
            const int g = (round + k) % kMeasured;
            regimes.activate(measured[g]);
            for (int i = 0; i < kRuns; i++) {
                regimes.run(step);
            }
            bench::synchronize();
            std::memset(ticks, 0, sizeof(ticks));
            timing = true;
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < kRuns; i++) {
                regimes.run(step);
            }
            bench::synchronize();
            const auto end = std::chrono::steady_clock::now();
            timing = false;
            total[g].push_back(std::chrono::duration<double, std::nano>(end - start).count() / kRuns);
            for (int e = 0; e < kEntries; e++) {
                part[g][e].push_back(double(ticks[e]) / per_ns / kRuns);
            }
            regimes.deactivate();
        }
    }
    std::printf("harena-call-costs on %s: chain4 %s, %d rounds of %d runs per regime, regimes alternated\n",
                bench::device_description().c_str(), size.c_str(), rounds, kRuns);
    std::printf("ns per run, medians over rounds; rest = total - the columns (pipeline code, loop)\n");
    std::printf("%-15s %8s", "regime", "total");
    for (const char *name : kEntryNames) {
        std::printf(" %8s", name);
    }
    std::printf(" %8s\n", "rest");
    for (int g = 0; g < kMeasured; g++) {
        double listed = 0;
        std::printf("%-15s %8.0f", bench::regime_name(measured[g]), median(total[g]));
        for (int e = 0; e < kEntries; e++) {
            listed += median(part[g][e]);
            std::printf(" %8.0f", median(part[g][e]));
        }
        std::printf(" %8.0f\n", median(total[g]) - listed);
    }
    return 0;
}
