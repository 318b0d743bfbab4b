// What the driver probes share: error checks, the kernels' module, a chain
// of four stage launches on a stream, and a timed loop of T threads.
#pragma once

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

#define PROBE_CHECK(call) probe::check((call), #call, __LINE__)

namespace probe {

extern "C" const char kernels_ptx[];  // kernels.cu as PTX (build.sh)

inline void check(CUresult result, const char *what, int line) {
    if (result != CUDA_SUCCESS) {
        const char *name = "?";
        cuGetErrorName(result, &name);
        std::fprintf(stderr, "line %d: %s failed: %s\n", line, what, name);
        std::exit(1);
    }
}

// Positional argument i as a number, or `fallback` where there is none.
inline double argument(int argc, char **argv, int i, double fallback) {
    return argc > i ? std::atof(argv[i]) : fallback;
}

constexpr int kElements = 4096;  // 64x64
constexpr size_t kBufferBytes = kElements * sizeof(float) + 256;

// One thread's stream and buffers in one context.
struct Lane {
    CUcontext context = nullptr;
    CUfunction stage = nullptr;
    CUstream stream = nullptr;
    CUdeviceptr buffers[4] = {};

    void make(CUcontext ctx, CUfunction stage_function) {
        context = ctx;
        stage = stage_function;
        PROBE_CHECK(cuCtxSetCurrent(ctx));
        PROBE_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
        for (CUdeviceptr &b : buffers) {
            PROBE_CHECK(cuMemAlloc(&b, kBufferBytes));
            PROBE_CHECK(cuMemsetD8(b, 0, kBufferBytes));
        }
    }
    // `kernels` dependent stage launches on the lane's stream.
    void launch_chain(int kernels) {
        int n = kElements;
        for (int k = 0; k < kernels; k++) {
            float scale = 0.5f + static_cast<float>(k);
            void *args[] = {&buffers[k % 4], &buffers[(k + 1) % 4], &n, &scale};
            PROBE_CHECK(cuLaunchKernel(stage, 16, 1, 1, 256, 1, 1, 0, stream, args, nullptr));
        }
    }
};

struct Measured {
    double calls_per_second;
    double p50_us, p99_us;
    double slowest_over_fastest;  // the least busy thread's calls over the busiest's
};

// threads.size() threads, each running call(i) on its own index for `seconds`
// after 20 untimed calls; each thread makes its lane's context current first.
inline Measured run_threads(const std::vector<Lane *> &lanes, double seconds, const std::function<void(int)> &call) {
    using Clock = std::chrono::steady_clock;
    const int count = static_cast<int>(lanes.size());
    std::atomic<int> ready{0};
    std::atomic<bool> go{false}, stop{false};
    std::vector<std::vector<double>> latencies(count);
    std::vector<std::thread> pool;
    for (int t = 0; t < count; t++) {
        pool.emplace_back([&, t] {
            PROBE_CHECK(cuCtxSetCurrent(lanes[t]->context));
            latencies[t].reserve(1 << 20);
            for (int i = 0; i < 20; i++) {
                call(t);
            }
            ready++;
            while (!go) {
            }
            while (!stop) {
                const Clock::time_point before = Clock::now();
                call(t);
                latencies[t].push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
            }
            PROBE_CHECK(cuStreamSynchronize(lanes[t]->stream));
        });
    }
    while (ready < count) {
    }
    const Clock::time_point began = Clock::now();
    go = true;
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (std::thread &t : pool) {
        t.join();
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
    std::vector<double> all;
    size_t fewest = SIZE_MAX, most = 0;
    for (const std::vector<double> &l : latencies) {
        all.insert(all.end(), l.begin(), l.end());
        fewest = std::min(fewest, l.size());
        most = std::max(most, l.size());
    }
    std::sort(all.begin(), all.end());
    auto at = [&](double q) { return all.empty() ? 0.0 : all[std::min(all.size() - 1, static_cast<size_t>(q * all.size()))]; };
    return Measured{static_cast<double>(all.size()) / elapsed, at(0.5), at(0.99),
                    most == 0 ? 0.0 : static_cast<double>(fewest) / static_cast<double>(most)};
}

}  // namespace probe
