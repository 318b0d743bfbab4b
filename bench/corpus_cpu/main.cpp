// harena-corpus-cpu-bench: the corpus (generators/corpus) built for the
// host, each pipeline called as RunGen calls it (the same host buffers every
// call) at its estimates: Halide's default (the plain build, halide_malloc
// for every intermediate) and the plan (the arena build in a host arena of
// the bytes it asks for), alternated call by call in one run. Prints per
// pipeline the median time per call of each; the median over rounds of the
// ratio of the plan's call to the default's in the same round, with its 95%
// interval (bench/common/median.h); the heap allocations per call of each
// and the plan's slot tasks; after checking that both give the same bits.
// The default also runs a second time in the same rounds: its ratio to the
// first is the noise floor of the row, against which the plan's ratio is
// read. A benchmark, not a test.
//
// Every call must see the same history, or the order of the calls, not the
// build, decides a row by a few percent:
//   - three sets of buffers take turns, one set a round, so that no call
//     keeps the placement of one set (the physical pages behind a buffer move
//     a pipeline by several percent);
//   - the round's first call is the first on a new set, which costs it more:
//     each of the three calls goes first equally often;
//   - each timed call follows an untimed call of its own build on the same
//     buffers, as in a loop of calls; otherwise the second default would
//     warm the heap blocks of the first, while the plan always followed
//     another build;
//   - the rounds of a pipeline are shared among several processes, one after
//     the other, each with memory of its own: the physical pages a process
//     is given move a row by 1-2% for the whole process (the default
//     against itself included), by more than one process's interval.
//
//   harena-corpus-cpu-bench [--rounds N] [--processes P] [--only NAME] [--threads N]
//
// Each of the P processes (default 6) runs N rounds (default 9), rounded up
// to a multiple of 9; the ratios are over all P x N rounds, and the range of
// the processes' own medians is printed beside them.
#include "host_corpus.h"
#include "median.h"

#include "harena/arena.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace harena_corpus;

namespace {

std::atomic<long> heap_allocations{0};

}  // namespace

// Halide's default allocator, counted: the same cost in both regimes.
extern "C" void *halide_malloc(void *, size_t size) {
    heap_allocations.fetch_add(1, std::memory_order_relaxed);
    void *p = nullptr;
    return posix_memalign(&p, 128, size ? size : 1) == 0 ? p : nullptr;
}

extern "C" void halide_free(void *, void *ptr) {
    free(ptr);
}

extern "C" int halide_set_num_threads(int n);

namespace {

struct Timed {
    double seconds;
    long heap_allocations;
};

template<typename Call>
Timed timed(Call &&call) {
    heap_allocations = 0;
    const auto start = std::chrono::steady_clock::now();
    if (int err = call()) {
        std::fprintf(stderr, "a call failed with %d\n", err);
        std::exit(1);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return Timed{s, heap_allocations.load()};
}

// The three calls of a round, and the sets of buffers they take turns on.
enum Call { kDefault,
            kPlan,
            kDefaultAgain,
            kRoundCalls };

// Whether every set's outputs hold the same bits; names the first difference.
bool same_outputs(const Pipeline &p, const Workload (&sets)[kRoundCalls]) {
    for (int k = 1; k < kRoundCalls; k++) {
        const std::string diff = difference(sets[0], sets[k]);
        if (!diff.empty()) {
            std::fprintf(stderr, "%s: the outputs of buffer sets 0 and %d differ: %s\n", p.name, k, diff.c_str());
            return false;
        }
    }
    return true;
}

// The median of the rounds' ratios a[r] / b[r] (the two calls of one round
// meet the same conditions) and its 95% interval.
struct Ratio {
    double median;
    harena_bench::Interval interval;
};

Ratio round_ratios(const std::vector<double> &a, const std::vector<double> &b) {
    std::vector<double> ratios;
    for (size_t r = 0; r < a.size(); r++) {
        ratios.push_back(a[r] / b[r]);
    }
    return Ratio{harena_bench::median(ratios), harena_bench::median_interval(ratios)};
}

// What one process measured of one pipeline: the seconds of each call of
// each round, the heap allocations of each call summed over rounds, the
// plan's slot tasks and fallbacks, and the arena's bytes.
struct Measured {
    std::vector<double> seconds[kRoundCalls];
    long heap[kRoundCalls] = {};
    uint64_t slot_tasks = 0, slot_fallbacks = 0, arena_bytes = 0;
};

// `rounds` rounds of `p` in this process; false (and a message) where the
// outputs of the plan and the default differ.
bool measure_rounds(const Pipeline &p, int rounds, Measured &m) {
    Workload sets[kRoundCalls] = {p.make(1.0), p.make(1.0), p.make(1.0)};
    for (Workload &w : sets) {
        p.write(w, 0);
    }
    m.arena_bytes = harena::measure([&](void *uc) { return p.planned(uc, sets[0]); });
    harena::Arena arena = harena::Arena::host(std::max<uint64_t>(m.arena_bytes, 256));
    const auto run = [&](int call, Workload &w) {
        return call == kPlan ? timed([&] { return p.planned(arena.get(), w); }) : timed([&] { return p.plain(w); });
    };
    for (int warm = 0; warm < 2; warm++) {
        for (int k = 0; k < kRoundCalls; k++) {
            run(k, sets[k]);
        }
    }
    if (!same_outputs(p, sets)) {
        return false;
    }
    (void)harena_reset_stats(arena.get());
    for (int r = 0; r < rounds; r++) {
        // Call k of round r: which of the three it is, on the round's set.
        const int set = r % kRoundCalls;
        for (int k = 0; k < kRoundCalls; k++) {
            const int call = (r / kRoundCalls + k) % kRoundCalls;
            (void)run(call, sets[set]);  // the untimed call before it
            const Timed t = run(call, sets[set]);
            m.seconds[call].push_back(t.seconds);
            m.heap[call] += t.heap_allocations;
        }
    }
    if (!same_outputs(p, sets)) {
        return false;
    }
    const harena::Stats stats = arena.stats();
    m.slot_tasks = stats.slot_tasks;
    m.slot_fallbacks = stats.slot_fallbacks;
    return true;
}

// Moves all `size` bytes at `at` through `fd` with `io` (read or write), or
// returns false.
template<typename Io, typename Byte>
bool move_all(Io io, int fd, Byte *at, size_t size) {
    while (size > 0) {
        const ssize_t n = io(fd, at, size);
        if (n <= 0) {
            return false;
        }
        at += n;
        size -= static_cast<size_t>(n);
    }
    return true;
}

// Passes each figure of `m` (its seconds sized to `rounds` rounds) to
// `move(bytes, size)`, in the order the child writes them and the parent
// reads them; false once one fails.
template<typename Move>
bool each_figure(Measured &m, int rounds, Move move) {
    bool ok = true;
    for (int k = 0; ok && k < kRoundCalls; k++) {
        m.seconds[k].resize(rounds);
        ok = move(reinterpret_cast<char *>(m.seconds[k].data()), sizeof(double) * rounds);
    }
    return ok && move(reinterpret_cast<char *>(m.heap), sizeof(m.heap)) &&
           move(reinterpret_cast<char *>(&m.slot_tasks), sizeof(uint64_t)) &&
           move(reinterpret_cast<char *>(&m.slot_fallbacks), sizeof(uint64_t)) &&
           move(reinterpret_cast<char *>(&m.arena_bytes), sizeof(uint64_t));
}

// `rounds` rounds of `p` in a child process of its own, whose memory and
// Halide thread pool are new (this process never runs a pipeline, so no
// thread of the pool is lost to the fork); its figures are added to `all`,
// and its plan / default median to `process_medians`.
bool measure_in_child(const Pipeline &p, int rounds, int threads, Measured &all,
                      std::vector<double> &process_medians) {
    int fds[2];
    if (pipe(fds) != 0) {
        std::perror("pipe");
        return false;
    }
    std::fflush(stdout);
    const pid_t child = fork();
    if (child < 0) {
        std::perror("fork");
        return false;
    }
    if (child == 0) {
        close(fds[0]);
        if (threads > 0) {
            halide_set_num_threads(threads);
        }
        Measured m;
        const bool ok = measure_rounds(p, rounds, m) && each_figure(m, rounds, [&](char *bytes, size_t size) {
                            return move_all(write, fds[1], static_cast<const char *>(bytes), size);
                        });
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    Measured m;
    const bool ok =
        each_figure(m, rounds, [&](char *bytes, size_t size) { return move_all(read, fds[0], bytes, size); });
    close(fds[0]);
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !ok) {
        std::fprintf(stderr, "%s: the measuring process failed (status %d)\n", p.name, status);
        return false;
    }
    for (int k = 0; k < kRoundCalls; k++) {
        all.seconds[k].insert(all.seconds[k].end(), m.seconds[k].begin(), m.seconds[k].end());
        all.heap[k] += m.heap[k];
    }
    all.slot_tasks += m.slot_tasks;
    all.slot_fallbacks += m.slot_fallbacks;
    all.arena_bytes = m.arena_bytes;
    process_medians.push_back(round_ratios(m.seconds[kPlan], m.seconds[kDefault]).median);
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = 9, processes = 6, threads = 0;
    std::string only;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--rounds" && i + 1 < argc) {
            rounds = std::atoi(argv[++i]);
        } else if (arg == "--processes" && i + 1 < argc) {
            processes = std::max(1, std::atoi(argv[++i]));
        } else if (arg == "--only" && i + 1 < argc) {
            only = argv[++i];
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--rounds N] [--processes P] [--only NAME] [--threads N]\n", argv[0]);
            return 2;
        }
    }
    // Every call meets every set in every position equally often.
    constexpr int kPeriod = kRoundCalls * kRoundCalls;
    rounds = std::max(1, (rounds + kPeriod - 1) / kPeriod) * kPeriod;
    std::printf("%d processes x %d rounds\n", processes, rounds);
    std::printf("| pipeline | default ms | plan ms | plan / default [95%% interval] | processes' medians "
                "| default / default [95%% interval] | heap allocations per call, default | plan "
                "| slot tasks per call | slot fallbacks | arena bytes |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Pipeline &p : host_pipelines()) {
        if (!only.empty() && only != p.name) {
            continue;
        }
        Measured all;
        std::vector<double> process_medians;
        for (int k = 0; k < processes; k++) {
            if (!measure_in_child(p, rounds, threads, all, process_medians)) {
                return 1;
            }
        }
        const Ratio plan = round_ratios(all.seconds[kPlan], all.seconds[kDefault]),
                    noise_floor = round_ratios(all.seconds[kDefaultAgain], all.seconds[kDefault]);
        const double total_rounds = double(processes) * rounds;
        const double plan_calls = 2.0 * total_rounds;  // each timed call and the untimed one before it
        std::printf("| %s | %.3f | %.3f | %.3f [%.3f, %.3f] | %.3f-%.3f | %.3f [%.3f, %.3f] | %.1f | %.1f | %.1f | %llu "
                    "| %llu |\n",
                    p.name, harena_bench::median(all.seconds[kDefault]) * 1e3,
                    harena_bench::median(all.seconds[kPlan]) * 1e3, plan.median, plan.interval.low,
                    plan.interval.high, *std::min_element(process_medians.begin(), process_medians.end()),
                    *std::max_element(process_medians.begin(), process_medians.end()), noise_floor.median,
                    noise_floor.interval.low, noise_floor.interval.high, double(all.heap[kDefault]) / total_rounds,
                    double(all.heap[kPlan]) / total_rounds, double(all.slot_tasks) / plan_calls,
                    static_cast<unsigned long long>(all.slot_fallbacks),
                    static_cast<unsigned long long>(all.arena_bytes));
        std::fflush(stdout);
    }
    return 0;
}
