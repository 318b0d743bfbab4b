// harena-rmm-bench: host time per allocate/deallocate pair of an RMM memory
// resource, on the allocation pattern of a planned pipeline repeated: the 23
// device intermediates of the corpus's local_laplacian at its estimates, each
// allocated at the start of its lifetime and deallocated at its end, in the
// order the plan's lifetimes give. Resources, all through
// rmm::device_async_resource_ref:
//   rmm pool: rmm::mr::pool_memory_resource over cuda_memory_resource;
//   rmm async: rmm::mr::cuda_async_memory_resource;
//   harena slices: harena::SliceResource over a harena::ResourceArena taken
//   from the pool, one frame pushed and popped per repetition (part of the
//   time measured).
// Each on one stream, and on two streams taking turns per repetition (the
// arena then records one event and queues one wait per repetition). No
// kernel runs: what is measured is the host's cost of the calls. Medians of
// 7 rounds of 2000 repetitions, rounds of the resources alternated.
#include <rmm/mr/cuda_async_memory_resource.hpp>
#include <rmm/mr/cuda_memory_resource.hpp>
#include <rmm/mr/pool_memory_resource.hpp>
#include <rmm/resource_ref.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "harena/rmm.hpp"
#include "median.h"

namespace {

struct Slice {
    const char *name;
    int lower, upper;  // lifetime [lower, upper) in the plan's steps
    std::size_t bytes;
};

// From local_laplacian's plan report (tests/support/corpus, CUDA, estimates).
const Slice kSlices[] = {
    {"remap", 96, 1626, 14340},
    {"processed_1", 120, 1628, 66957600},
    {"processed_2", 344, 1519, 16668960},
    {"processed_3", 390, 1437, 4132128},
    {"processed_4", 435, 1360, 1015584},
    {"processed_5", 480, 1277, 245280},
    {"processed_6", 526, 1195, 57120},
    {"processed_7", 570, 1111, 12288},
    {"in_gauss_1", 623, 1521, 8369700},
    {"in_gauss_2", 721, 1439, 2083620},
    {"in_gauss_3", 764, 1362, 516516},
    {"in_gauss_4", 807, 1279, 126948},
    {"in_gauss_5", 850, 1197, 30660},
    {"in_gauss_6", 893, 1113, 7140},
    {"in_gauss_7", 934, 1030, 1536},
    {"out_gauss_7", 981, 1115, 1536},
    {"out_gauss_6", 1034, 1199, 4928},
    {"out_gauss_5", 1119, 1281, 17472},
    {"out_gauss_4", 1203, 1364, 70384},
    {"out_gauss_3", 1285, 1441, 272896},
    {"out_gauss_2", 1368, 1523, 1036800},
    {"out_gauss_1", 1445, 1630, 4039168},
    {"out_gauss_0", 1525, 1740, 15728640},
};
constexpr int kSliceCount = sizeof(kSlices) / sizeof(kSlices[0]);
constexpr int kRepetitions = 2000;
constexpr int kRounds = 7;

// The pattern as a sequence: slice i allocated (i >= 0) or deallocated
// (~i), in time order, frees first at equal times.
std::vector<int> pattern() {
    std::vector<std::pair<int, int>> events;
    for (int i = 0; i < kSliceCount; i++) {
        events.emplace_back(2 * kSlices[i].lower + 1, i);
        events.emplace_back(2 * kSlices[i].upper, ~i);
    }
    std::sort(events.begin(), events.end());
    std::vector<int> order;
    for (const auto &e : events) {
        order.push_back(e.second);
    }
    return order;
}

using Clock = std::chrono::steady_clock;

// Host microseconds per allocate/deallocate pair over kRepetitions
// repetitions; `frame` (may be empty) opens and closes each repetition on
// its stream.
double us_per_pair(rmm::device_async_resource_ref resource, const std::vector<cudaStream_t> &streams,
                   const std::function<void(cudaStream_t, bool)> &frame) {
    static const std::vector<int> order = pattern();
    void *pointers[kSliceCount] = {};
    const auto start = Clock::now();
    for (int r = 0; r < kRepetitions; r++) {
        const cuda::stream_ref stream{streams[r % streams.size()]};
        if (frame) {
            frame(stream.get(), true);
        }
        for (int e : order) {
            if (e >= 0) {
                pointers[e] = resource.allocate(stream, kSlices[e].bytes, 256);
            } else {
                resource.deallocate(stream, pointers[~e], kSlices[~e].bytes, 256);
            }
        }
        if (frame) {
            frame(stream.get(), false);
        }
    }
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    for (cudaStream_t s : streams) {
        (void)cudaStreamSynchronize(s);
    }
    return us / (double(kRepetitions) * kSliceCount);
}

// Every resource on one stream and on `two` taking turns; the streams
// outlive the resources, which give memory back on them.
void measure(const std::vector<cudaStream_t> &two, const char *gpu) {
    const std::vector<cudaStream_t> one{two[0]};
    rmm::mr::cuda_memory_resource cuda;
    rmm::mr::pool_memory_resource pool{cuda, std::size_t(1) << 30};
    rmm::mr::cuda_async_memory_resource async;
    harena::ResourceArena arena(harena::DeviceResource{pool}, std::size_t(256) << 20, cuda::stream_ref{two[0]});
    harena::SliceResource slices(arena.get());
    harena_frame frame{};
    const auto frames = [&](cudaStream_t s, bool open) {
        if (open) {
            (void)harena_push_on_stream(arena.get(), 0, s, &frame);
        } else {
            (void)harena_pop(arena.get(), frame);
        }
    };

    std::printf("harena-rmm-bench: %s; local_laplacian's %d device intermediates, %d repetitions, median of %d "
                "rounds\n",
                gpu, kSliceCount, kRepetitions, kRounds);
    std::printf("%-16s %-10s %14s\n", "resource", "streams", "us per pair");
    const std::vector<cudaStream_t> *stream_sets[] = {&one, &two};
    for (const std::vector<cudaStream_t> *streams : stream_sets) {
        std::vector<double> p, a, h;
        for (int round = 0; round < kRounds; round++) {
            p.push_back(us_per_pair(pool, *streams, nullptr));
            a.push_back(us_per_pair(async, *streams, nullptr));
            h.push_back(us_per_pair(slices, *streams, frames));
        }
        const char *label = streams->size() == 1 ? "one" : "two, turns";
        const double pm = harena_bench::median(p), am = harena_bench::median(a), hm = harena_bench::median(h);
        std::printf("%-16s %-10s %14.3f\n", "rmm pool", label, pm);
        std::printf("%-16s %-10s %14.3f\n", "rmm async", label, am);
        std::printf("%-16s %-10s %14.3f   (pool / harena: %.1fx)\n", "harena slices", label, hm, pm / hm);
    }
    harena_stats s{};
    (void)harena_get_stats(arena.get(), &s);
    std::printf("arena: %llu stream crossings, %llu events recorded, %llu waits over every round\n",
                static_cast<unsigned long long>(s.stream_crossings),
                static_cast<unsigned long long>(s.stream_events_recorded),
                static_cast<unsigned long long>(s.stream_waits));
}

}  // namespace

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("harena-rmm-bench: no GPU; nothing measured\n");
        return 0;
    }
    cudaDeviceProp properties{};
    (void)cudaGetDeviceProperties(&properties, 0);
    std::vector<cudaStream_t> two(2);
    for (cudaStream_t &s : two) {
        (void)cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    }
    measure(two, properties.name);
    for (cudaStream_t st : two) {
        (void)cudaStreamDestroy(st);
    }
    return 0;
}
