// harena-runtime-bench: the arena's hot paths on the host.
//   allocation in an active frame, one thread and two threads allocating in
//   the same frame at once: median ns per allocation;
//   allocation followed by its LIFO free: median ns per pair;
//   push + pop of a frame: median ns per pair;
//   scope begin + end, and a planned pipeline's enter + base + exit: median
//   ns per pair;
//   halide_device_malloc + halide_device_free through the override, with
//   Halide's CUDA device interface, in a scope: median ns per pair;
//   what the override adds to one run of a plain 4-stage chain: a scope,
//   three intermediates and the calls Halide's code makes around them:
//   median ns per run.
// Each sample times a batch of operations; the medians are over batches.
// The planned run and the chain run are also timed with the caches cold,
// one call at a time: on a GPU the driver's work between Halide's calls
// evicts the runtime's lines, and that, not the hot loop, is what a
// pipeline's run pays.
//
// The override rows need no GPU: the arena wraps host memory as if it were
// device memory, and binding it to a buffer and detaching it is bookkeeping
// in Halide's CUDA runtime (the one linked in with an AOT pipeline) that
// makes no driver call.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "HalideRuntimeCuda.h"
#include "harena/override.h"
#include "harena/runtime.h"
#include "median.h"

using harena_bench::median;

namespace {

constexpr int kBatch = 1000;
constexpr int kBatches = 2000;
constexpr uint64_t kBytes = 200;  // a small intermediate; rounds to one 256-byte unit

using Clock = std::chrono::steady_clock;

volatile uint64_t sink;

double ns_per_op(Clock::time_point start, Clock::time_point end) {
    return std::chrono::duration<double, std::nano>(end - start).count() / kBatch;
}

// The cold rows: before each timed call, kSweepBytes (past the L2 cache) are
// read and written, as a GPU driver's own calls between Halide's evict the
// runtime's lines; median over kColdCalls calls, each timed alone.
constexpr size_t kSweepBytes = size_t(1) << 20;
constexpr int kColdCalls = 20000;

std::vector<char> sweep_buffer(kSweepBytes);

void sweep_caches() {
    for (size_t i = 0; i < sweep_buffer.size(); i += 64) {
        sweep_buffer[i]++;
    }
}

template<class Op>
double median_cold_ns(Op op) {
    std::vector<double> samples;
    for (int i = 0; i < kColdCalls; i++) {
        sweep_caches();
        const auto start = Clock::now();
        op();
        samples.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count());
    }
    return median(samples);
}

// Median over kBatches batches of kBatch calls of op, in ns per call.
template<class Op>
double median_ns_per_call(Op op) {
    std::vector<double> samples;
    for (int b = 0; b < kBatches; b++) {
        const auto start = Clock::now();
        for (int i = 0; i < kBatch; i++) {
            op();
        }
        samples.push_back(ns_per_op(start, Clock::now()));
    }
    return median(samples);
}

void check(int code) {
    if (code != HARENA_OK) {
        std::fprintf(stderr, "harena-runtime-bench: %s\n", harena_last_error());
        std::exit(1);
    }
}

// Threads meet here between batches, so that they allocate at the same time
// and the frame is reset while none allocates.
class SpinBarrier {
public:
    explicit SpinBarrier(int threads)
        : threads_(threads) {
    }
    void wait() {
        const int generation = generation_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
            arrived_.store(0, std::memory_order_relaxed);
            generation_.fetch_add(1, std::memory_order_release);
            return;
        }
        while (generation_.load(std::memory_order_acquire) == generation) {
            std::this_thread::yield();
        }
    }

private:
    const int threads_;
    std::atomic<int> arrived_{0};
    std::atomic<int> generation_{0};
};

double allocation_ns(harena_arena *arena, int threads) {
    SpinBarrier barrier(threads);
    std::vector<std::vector<double>> samples(threads);
    harena_frame frame{};
    check(harena_push(arena, 0, &frame));
    auto worker = [&](int t) {
        for (int b = 0; b < kBatches; b++) {
            barrier.wait();
            uint64_t address = 0;
            const auto start = Clock::now();
            for (int i = 0; i < kBatch; i++) {
                check(harena_alloc(arena, kBytes, nullptr, &address));
            }
            const auto end = Clock::now();
            sink = address;
            samples[t].push_back(ns_per_op(start, end));
            barrier.wait();
            if (t == 0) {
                check(harena_pop(arena, frame));
                check(harena_push(arena, 0, &frame));
            }
        }
    };
    std::vector<std::thread> others;
    for (int t = 1; t < threads; t++) {
        others.emplace_back(worker, t);
    }
    worker(0);
    for (auto &t : others) {
        t.join();
    }
    check(harena_pop(arena, frame));
    std::vector<double> all;
    for (const auto &s : samples) {
        all.insert(all.end(), s.begin(), s.end());
    }
    return median(all);
}

double alloc_free_ns(harena_arena *arena) {
    harena_frame frame{};
    check(harena_push(arena, 0, &frame));
    const double ns = median_ns_per_call([arena] {
        uint64_t address = 0;
        check(harena_alloc(arena, kBytes, nullptr, &address));
        check(harena_free(arena, address, kBytes));
    });
    check(harena_pop(arena, frame));
    return ns;
}

double push_pop_ns(harena_arena *arena) {
    return median_ns_per_call([arena] {
        harena_frame frame{};
        check(harena_push(arena, 0, &frame));
        check(harena_pop(arena, frame));
    });
}

double scope_ns(harena_arena *arena) {
    return median_ns_per_call([arena] {
        harena_scope scope;
        check(harena_scope_begin(&scope, arena));
        check(harena_scope_end(&scope));
    });
}

// What a planned pipeline's run costs the arena: enter (a frame of the
// planned size), the base of its slices, exit.
void planned_run(harena_arena *arena) {
    check(harena_pipeline_enter(arena, "bench", nullptr, 3 * 16384, 3 * 16384, 0, 256));
    sink = harena_pipeline_base(arena);
    harena_pipeline_exit_as_destructor(arena, reinterpret_cast<void *>(sink));
}

// The override's rows run with Halide's CUDA device interface and need no
// GPU: the arena wraps host memory that stands in for device memory (Halide
// never dereferences it on these paths).
class CudaArenaOnHost {
public:
    CudaArenaOnHost()
        : region_((1 << 20) / sizeof(uint64_t)) {
        check(harena_create_from_memory(cuda, reinterpret_cast<uint64_t>(region_.data()),
                                        region_.size() * sizeof(uint64_t), nullptr, &arena));
        harena_override_reset_counters();
    }
    ~CudaArenaOnHost() {
        harena_override_counters counters;
        harena_override_get_counters(&counters);
        if (counters.device_arena_allocations != expected_allocations || counters.device_default_allocations != 0) {
            std::fprintf(stderr, "harena-runtime-bench: the override did not serve every allocation from the arena\n");
            std::exit(1);
        }
        check(harena_destroy(arena));
    }

    const halide_device_interface_t *const cuda = halide_cuda_device_interface();
    harena_arena *arena = nullptr;
    uint64_t expected_allocations = 0;

private:
    std::vector<uint64_t> region_;
};

// A 64x64 float intermediate, as a pipeline declares it: no memory yet.
struct Intermediate {
    Intermediate() {
        buf.type = halide_type_t(halide_type_float, 32);
        buf.dimensions = 2;
        buf.dim = dim;
    }
    halide_dimension_t dim[2] = {{0, 64, 1, 0}, {0, 64, 64, 0}};
    halide_buffer_t buf{};
};

void check_halide(int failed) {
    if (failed != 0) {
        std::fprintf(stderr, "harena-runtime-bench: halide_device_malloc or halide_device_free failed\n");
        std::exit(1);
    }
}

// What one intermediate of a pipeline costs the host under the override: the
// malloc a stage's produce makes and the free after its last consumer.
double override_pair_ns() {
    CudaArenaOnHost a;
    Intermediate i1;
    harena_scope scope;
    check(harena_scope_begin(&scope, a.arena));
    int failed = 0;
    const double ns = median_ns_per_call([&] {
        failed |= halide_device_malloc(nullptr, &i1.buf, a.cuda);
        failed |= halide_device_free(nullptr, &i1.buf);
    });
    check_halide(failed);
    check(harena_scope_end(&scope));
    a.expected_allocations = uint64_t(kBatches) * kBatch;
    return ns;
}

// What the override adds to one run of a plain 4-stage chain in its own
// scope, with the calls Halide 21's code makes: the scope; three
// intermediates, each freed after the next stage has consumed it, and each
// consumed one allocated again before that stage (a no-op, it has memory);
// and the destructors' second free of each once the pipeline returns.
// Timed in batches, as the other rows, or cold (median_cold_ns).
double override_chain_run_ns(bool cold) {
    CudaArenaOnHost a;
    Intermediate s1, s2, s3;
    int failed = 0;
    auto run = [&] {
        harena_scope scope;
        check(harena_scope_begin(&scope, a.arena));
        failed |= halide_device_malloc(nullptr, &s1.buf, a.cuda);
        failed |= halide_device_malloc(nullptr, &s2.buf, a.cuda);
        failed |= halide_device_malloc(nullptr, &s1.buf, a.cuda);
        failed |= halide_device_free(nullptr, &s1.buf);
        failed |= halide_device_malloc(nullptr, &s3.buf, a.cuda);
        failed |= halide_device_malloc(nullptr, &s2.buf, a.cuda);
        failed |= halide_device_free(nullptr, &s2.buf);
        failed |= halide_device_free(nullptr, &s3.buf);
        for (Intermediate *s : {&s1, &s2, &s3}) {
            failed |= halide_device_free(nullptr, &s->buf);
        }
        check(harena_scope_end(&scope));
    };
    const double ns = cold ? median_cold_ns(run) : median_ns_per_call(run);
    check_halide(failed);
    a.expected_allocations = 3 * (cold ? uint64_t(kColdCalls) : uint64_t(kBatches) * kBatch);
    return ns;
}

}  // namespace

int main() {
    harena_arena *arena = nullptr;
    check(harena_create(nullptr, nullptr, 64 << 20, nullptr, &arena));
    // Touch every page once so that first-touch faults stay out of the samples.
    harena_frame warm{};
    check(harena_push(arena, 0, &warm));
    uint64_t address = 0;
    check(harena_alloc(arena, 64 << 20, nullptr, &address));
    for (uint64_t p = address; p < address + (64 << 20); p += 4096) {
        *reinterpret_cast<volatile char *>(p) = 0;
    }
    check(harena_pop(arena, warm));

    std::printf("harena-runtime-bench: host arena, %d batches of %d operations, %llu-byte allocations\n", kBatches,
                kBatch, static_cast<unsigned long long>(kBytes));
    std::printf("  alloc in an active frame, 1 thread    %6.1f ns median\n", allocation_ns(arena, 1));
    std::printf("  alloc in an active frame, 2 threads   %6.1f ns median (per allocation, per thread)\n",
                allocation_ns(arena, 2));
    std::printf("  alloc + LIFO free pair, 1 thread      %6.1f ns median\n", alloc_free_ns(arena));
    std::printf("  push + pop pair                       %6.1f ns median\n", push_pop_ns(arena));
    std::printf("  scope begin + end                     %6.1f ns median\n", scope_ns(arena));
    std::printf("  planned run: enter + base + exit      %6.1f ns median\n",
                median_ns_per_call([arena] { planned_run(arena); }));
    const double planned_cold = median_cold_ns([arena] { planned_run(arena); });
    check(harena_destroy(arena));
    std::printf("  device malloc + free pair, override   %6.1f ns median (CUDA interface, 64x64 float, in a scope)\n",
                override_pair_ns());
    std::printf("  4-stage chain run under the override  %6.1f ns median (a scope, 3 intermediates, Halide 21's "
                "calls)\n",
                override_chain_run_ns(false));
    std::printf("caches cold (%zu KiB swept before each call, %d calls timed one by one):\n", kSweepBytes >> 10,
                kColdCalls);
    std::printf("  planned run: enter + base + exit      %6.1f ns median\n", planned_cold);
    std::printf("  4-stage chain run under the override  %6.1f ns median\n", override_chain_run_ns(true));
    return 0;
}
