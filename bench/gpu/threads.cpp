// harena-threads-bench: the app pipelines and two corpus pipelines
// (thread_workloads.h) called from T host threads at once, as a program that
// serves requests calls them. Every thread has its own
// buffers and, in the arena regimes, its own arena and stream, and waits for
// its result after every call. Reports calls per second over all threads
// and the latency percentiles of single calls, for T = 1, 2, 4, 8, 16, and
// checks after each measurement, with all threads still running, that every
// thread's outputs hold the same bits as a single-threaded plain call's.
#include "driver.h"
#include "regimes.h"
#include "thread_workloads.h"
#include "threads_report.h"

#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"
#include "harena/cuda.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "harena-threads-bench: %s failed (%d): %s\n", what, result, harena_last_error());
        std::exit(1);
    }
}

// The stream Halide's runtime launches plain pipelines on in the regime
// "halide default, a stream per thread": the calling thread's own, else
// Halide's default (the legacy default stream). Installed before the arena
// runtime's hooks, which hand every call not made with an arena to it.
thread_local void *thread_stream = nullptr;

int stream_per_thread(void *, void *, void **stream) {
    *stream = thread_stream;
    return 0;
}

// Releases every waiting thread once all `count` have arrived.
class Barrier {
public:
    explicit Barrier(int count)
        : count_(count) {
    }
    void arrive_and_wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        const int generation = generation_;
        if (++arrived_ == count_) {
            arrived_ = 0;
            generation_++;
            all_.notify_all();
            return;
        }
        all_.wait(lock, [&] { return generation != generation_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable all_;
    int count_;
    int arrived_ = 0;
    int generation_ = 0;
};

// One thread's buffers, arena and stream for one regime.
class Worker {
public:
    Worker(const ThreadWorkloadSpec &spec, ThreadRegime regime)
        : workload_(spec.make()), regime_(regime.regime) {
        switch (regime_) {
        case Regime::halide_default:
            if (regime.stream_per_thread) {
                // An arena only for its stream: Halide's context, non-blocking.
                arena_ = make_arena(1 << 16);
                check(harena_create_cuda_stream(arena_.get()), "harena_create_cuda_stream");
                harena_cuda_binding binding;
                check(harena_get_cuda_binding(arena_.get(), &binding), "harena_get_cuda_binding");
                stream_ = binding.stream;
            }
            break;
        case Regime::arena_override:
            arena_ = make_arena(workload_->override_bytes());
            break;
        case Regime::arena_plan:
            arena_ = make_arena(planned_bytes());
            check(harena_create_cuda_stream(arena_.get()), "harena_create_cuda_stream");
            break;
        case Regime::arena_graph:
            arena_ = make_arena(planned_bytes());
            check(harena_create_cuda_stream(arena_.get()), "harena_create_cuda_stream");
            check(harena_graph_cache_create(arena_.get(), kGraphCapacity, &graphs_), "harena_graph_cache_create");
            break;
        default:
            std::fprintf(stderr, "harena-threads-bench: no threaded form of regime %s\n", regime_name(regime_));
            std::exit(2);
        }
    }
    ~Worker() {
        if (graphs_ != nullptr) {
            (void)harena_graph_cache_destroy(graphs_);  // the graphs before the arena their kernels point into
        }
    }
    Worker(const Worker &) = delete;
    Worker &operator=(const Worker &) = delete;

    // One call of step `i`, waited for.
    void call(size_t i) {
        i %= workload_->steps();
        void *user_context = nullptr;
        int result = 0;
        switch (regime_) {
        case Regime::arena_override: {
            harena_scope scope;
            check(harena_scope_begin(&scope, arena_.get()), "harena_scope_begin");
            result = workload_->plain(i);
            check(harena_scope_end(&scope), "harena_scope_end");
            break;
        }
        case Regime::arena_plan:
            user_context = arena_.get();
            result = workload_->planned(i, arena_.get());
            break;
        case Regime::arena_graph:
            user_context = arena_.get();
            result = workload_->through_graphs(i, graphs_);
            break;
        default:  // Halide's default, on its stream or the thread's
            result = workload_->plain(i);
            break;
        }
        check(result, "the pipeline");
        check(workload_->sync(i, user_context), "halide_device_sync");
    }

    void bind_thread() const {
        thread_stream = stream_;
    }
    [[nodiscard]] size_t steps() const {
        return workload_->steps();
    }
    // Step i's output after a call with the output poisoned first.
    [[nodiscard]] std::vector<uint8_t> fresh_output(size_t i) {
        workload_->poison(i);
        check(workload_->sync(i, nullptr), "halide_device_sync");
        call(i);
        return workload_->output(i);
    }

    std::vector<double> latencies_us;

private:
    std::unique_ptr<ThreadWorkload> workload_;
    Regime regime_;
    std::unique_ptr<harena_arena, int (*)(harena_arena *)> arena_{nullptr, harena_destroy};
    harena_graph_cache *graphs_ = nullptr;
    void *stream_ = nullptr;

    static std::unique_ptr<harena_arena, int (*)(harena_arena *)> make_arena(uint64_t bytes) {
        harena_arena *arena = nullptr;
        check(harena_create(nullptr, halide_cuda_device_interface(), bytes, nullptr, &arena), "harena_create");
        return {arena, harena_destroy};
    }

    // What the largest of the workload's planned calls needs, asked of the pipeline.
    uint64_t planned_bytes() {
        uint64_t most = 0;
        for (size_t i = 0; i < workload_->steps(); i++) {
            most = std::max(most, harena::measure([&](void *arena) {
                                return workload_->planned(i, static_cast<harena_arena *>(arena));
                            }));
        }
        return std::max<uint64_t>(most, 1);
    }
};

// Every step's output from the plain pipeline on one thread.
std::vector<std::vector<uint8_t>> reference_outputs(const ThreadWorkloadSpec &spec) {
    Worker worker(spec, ThreadRegime{Regime::halide_default, false});
    std::vector<std::vector<uint8_t>> outputs;
    for (size_t i = 0; i < worker.steps(); i++) {
        outputs.push_back(worker.fresh_output(i));
    }
    return outputs;
}

// FNV-1a over the bits of every step's output: printed, so that two builds
// of this program (Halide's launch path and harena_cuda_launch) can be
// compared for bit-identical results.
uint64_t bits_hash(const std::vector<std::vector<uint8_t>> &outputs) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const std::vector<uint8_t> &output : outputs) {
        for (uint8_t byte : output) {
            h = (h ^ byte) * 0x100000001b3ull;
        }
    }
    return h;
}

ThreadRow measure(const ThreadWorkloadSpec &spec, ThreadRegime regime, int threads, double seconds,
                  const std::vector<std::vector<uint8_t>> &reference) {
    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0; t < threads; t++) {
        workers.push_back(std::make_unique<Worker>(spec, regime));
    }
    Barrier start(threads + 1), done(threads + 1);
    std::atomic<bool> stop{false};
    std::atomic<int> mismatches{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) {
        pool.emplace_back([&, t] {
            Worker &w = *workers[t];
            w.bind_thread();
            // Warm up: modules loaded, Halide's cache filled, graphs captured.
            for (size_t i = 0; i < 2 * w.steps(); i++) {
                w.call(i);
            }
            w.latencies_us.reserve(1 << 20);
            start.arrive_and_wait();
            for (size_t i = 0; !stop.load(std::memory_order_relaxed); i++) {
                const Clock::time_point before = Clock::now();
                w.call(i);
                w.latencies_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - before).count());
            }
            done.arrive_and_wait();
            // Still all threads at once: every step's output, poisoned first.
            for (size_t i = 0; i < w.steps(); i++) {
                mismatches += w.fresh_output(i) == reference[i] ? 0 : 1;
            }
        });
    }
    start.arrive_and_wait();
    const Clock::time_point began = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    done.arrive_and_wait();
    const double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
    for (std::thread &t : pool) {
        t.join();
    }
    std::vector<double> all;
    for (const auto &w : workers) {
        all.insert(all.end(), w->latencies_us.begin(), w->latencies_us.end());
    }
    ThreadRow row{spec.name, regime, threads};
    row.calls_per_second = static_cast<double>(all.size()) / elapsed;
    std::sort(all.begin(), all.end());
    row.p50_us = all.empty() ? 0 : all[all.size() / 2];
    row.p99_us = all.empty() ? 0 : all[std::min(all.size() - 1, all.size() * 99 / 100)];
    row.bit_identical = mismatches == 0;
    return row;
}

struct Options {
    double seconds = 0.5;
    std::vector<int> threads{1, 2, 4, 8, 16};
    std::string out;
    std::string only;   // a workload's name must contain it
    bool list = false;  // print the workloads and regimes it would run, and stop
};

Options parse(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        const std::string a = argv[i];
        if (a == "--seconds" && i + 1 < argc) {
            o.seconds = std::atof(argv[++i]);
        } else if (a == "--out" && i + 1 < argc) {
            o.out = argv[++i];
        } else if (a == "--list") {
            o.list = true;
        } else if (a == "--only" && i + 1 < argc) {
            o.only = argv[++i];
        } else if (a == "--threads" && i + 1 < argc) {
            o.threads.clear();
            for (char *p = argv[++i]; *p != '\0';) {
                o.threads.push_back(static_cast<int>(std::strtol(p, &p, 10)));
                p += *p == ',' ? 1 : 0;
            }
        } else {
            std::fprintf(stderr,
                         "usage: harena-threads-bench [--seconds S] [--threads 1,2,4] [--only WORKLOAD] [--out DIR] [--list]\n");
            std::exit(2);
        }
    }
    return o;
}

}  // namespace
}  // namespace bench

int main(int argc, char **argv) {
    using namespace bench;
    const Options options = parse(argc, argv);
    std::vector<ThreadWorkloadSpec> specs = thread_workload_specs();
    specs.erase(std::remove_if(specs.begin(), specs.end(),
                               [&](const ThreadWorkloadSpec &s) { return s.name.find(options.only) == std::string::npos; }),
                specs.end());
    if (options.list) {
        for (const ThreadWorkloadSpec &spec : specs) {
            for (ThreadRegime regime : kThreadRegimes) {
                std::printf("%s | %s\n", spec.name.c_str(), thread_regime_name(regime).c_str());
            }
        }
        return 0;
    }
    if (harena_cuda_device_count() == 0) {
        std::printf("harena-threads-bench: no usable CUDA device (libcuda missing, cuInit failed or no device); "
                    "nothing measured\n");
        return 0;
    }
    // Halide's stream for plain calls: the thread's own where it has one.
    // Installed first, so that the arena runtime's hooks hand it every call
    // not made with an arena.
    halide_set_cuda_get_stream(stream_per_thread);
    if (!driver_init() || harena_install_cuda_hooks() != 0) {
        std::fprintf(stderr, "harena-threads-bench: %s\n", harena_last_error());
        return 1;
    }
    std::printf("%s, %.2f s per measurement\n", device_description().c_str(), options.seconds);
    std::vector<ThreadRow> rows;
    for (const ThreadWorkloadSpec &spec : specs) {
        const std::vector<std::vector<uint8_t>> reference = reference_outputs(spec);
        std::printf("%s: reference outputs' bits hash to %016llx\n", spec.name.c_str(),
                    static_cast<unsigned long long>(bits_hash(reference)));
        for (ThreadRegime regime : kThreadRegimes) {
            for (int t : options.threads) {
                rows.push_back(measure(spec, regime, t, options.seconds, reference));
                print_row(rows.back());
            }
        }
    }
    print_table(rows);
    if (!options.out.empty()) {
        write_csv(rows, options.out + "/threads.csv");
        write_svg(rows, options.out);
    }
    return std::all_of(rows.begin(), rows.end(), [](const ThreadRow &r) { return r.bit_identical; }) ? 0 : 1;
}
