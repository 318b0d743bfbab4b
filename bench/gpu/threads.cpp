// harena-threads-bench: the app pipelines and two corpus pipelines
// (thread_workloads.h) called from T host threads at once, as a program that
// serves requests calls them. Every thread has its own
// buffers and, in the arena regimes, its own arena and stream, and waits for
// its result after every call. Reports calls per second over all threads
// and the latency percentiles of single calls, for T = 1, 2, 4, 8, 16, and
// checks after each measurement, with all threads still running, that every
// thread's outputs hold the same bits as a single-threaded plain call's.
// With --devices 1,2 the threads are spread over that many GPUs, T per GPU,
// every thread on its GPU's primary context with arenas made for it
// (harena_create_cuda), and each row is also compared with one GPU.
#include "driver.h"
#include "regimes.h"
#include "thread_contexts.h"
#include "thread_worker.h"
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

// Every step's output from the plain pipeline on one thread.
std::vector<std::vector<uint8_t>> reference_outputs(const ThreadWorkloadSpec &spec) {
    Worker worker(spec, ThreadRegime{Regime::halide_default, false}, nullptr);
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

// `threads_per_device` threads on each of `devices` GPUs (contexts empty:
// all on Halide's own context).
ThreadRow measure(const ThreadWorkloadSpec &spec, ThreadRegime regime, int devices, int threads_per_device,
                  double seconds, const std::vector<void *> &contexts,
                  const std::vector<std::vector<uint8_t>> &reference) {
    const int threads = devices * threads_per_device;
    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0; t < threads; t++) {
        workers.push_back(std::make_unique<Worker>(spec, regime, contexts.empty() ? nullptr : contexts[t % devices]));
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
    size_t fewest = SIZE_MAX, most = 0;
    for (const auto &w : workers) {
        all.insert(all.end(), w->latencies_us.begin(), w->latencies_us.end());
        fewest = std::min(fewest, w->latencies_us.size());
        most = std::max(most, w->latencies_us.size());
    }
    ThreadRow row{spec.name, regime, threads_per_device, devices};
    row.balance = most == 0 ? 0 : static_cast<double>(fewest) / static_cast<double>(most);
    row.calls_per_second = static_cast<double>(all.size()) / elapsed;
    std::sort(all.begin(), all.end());
    row.p50_us = all.empty() ? 0 : all[all.size() / 2];
    row.p99_us = all.empty() ? 0 : all[std::min(all.size() - 1, all.size() * 99 / 100)];
    row.bit_identical = mismatches == 0;
    return row;
}

struct Options {
    double seconds = 0.5;
    std::vector<int> threads{1, 2, 4, 8, 16};  // per GPU
    // GPU counts to spread the threads over, each GPU on its primary context;
    // empty: one GPU, Halide's own context.
    std::vector<int> devices;
    std::string out;
    std::string only;   // a workload's name must contain it
    bool list = false;  // print the workloads and regimes it would run, and stop
};

std::vector<int> int_list(char *text) {
    std::vector<int> values;
    for (char *p = text; *p != '\0';) {
        values.push_back(static_cast<int>(std::strtol(p, &p, 10)));
        p += *p == ',' ? 1 : 0;
    }
    return values;
}

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
            o.threads = int_list(argv[++i]);
        } else if (a == "--devices" && i + 1 < argc) {
            o.devices = int_list(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: harena-threads-bench [--seconds S] [--threads 1,2,4] [--devices 1,2] "
                                 "[--only WORKLOAD] [--out DIR] [--list]\n");
            std::exit(2);
        }
    }
    return o;
}

// With --devices: the primary context of each GPU the largest count asks
// for (as many as the machine has). Without: none, Halide's own context.
std::vector<void *> gpu_contexts(const Options &options) {
    if (options.devices.empty()) {
        return {};
    }
    const int most = *std::max_element(options.devices.begin(), options.devices.end());
    std::vector<void *> contexts = device_contexts(most);
    std::printf("%zu of %d GPUs asked for, each thread on its GPU's primary context\n", contexts.size(), most);
    return contexts;
}

// The GPU counts to measure: those asked for that the machine has.
std::vector<int> usable_device_counts(const Options &options, const std::vector<void *> &contexts) {
    std::vector<int> counts;
    for (int d : options.devices.empty() ? std::vector<int>{1} : options.devices) {
        if (d >= 1 && (contexts.empty() ? d == 1 : d <= static_cast<int>(contexts.size()))) {
            counts.push_back(d);
        } else {
            std::printf("skipping %d GPUs: this machine has %zu usable\n", d, contexts.size());
        }
    }
    return counts;
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
    // Halide's stream and context for plain calls: the thread's own where it
    // has them. Installed first, so that the arena runtime's hooks hand them
    // every call not made with an arena.
    install_thread_hooks();
    if (!driver_init() || harena_install_cuda_hooks() != 0) {
        std::fprintf(stderr, "harena-threads-bench: %s\n", harena_last_error());
        return 1;
    }
    std::printf("%s, %.2f s per measurement\n", device_description().c_str(), options.seconds);
    const std::vector<void *> contexts = gpu_contexts(options);
    const std::vector<int> device_counts = usable_device_counts(options, contexts);
    std::vector<ThreadRow> rows;
    for (const ThreadWorkloadSpec &spec : specs) {
        const std::vector<std::vector<uint8_t>> reference = reference_outputs(spec);
        std::printf("%s: reference outputs' bits hash to %016llx\n", spec.name.c_str(),
                    static_cast<unsigned long long>(bits_hash(reference)));
        for (int d : device_counts) {
            for (ThreadRegime regime : kThreadRegimes) {
                for (int t : options.threads) {
                    rows.push_back(measure(spec, regime, d, t, options.seconds, contexts, reference));
                    print_row(rows.back());
                }
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
