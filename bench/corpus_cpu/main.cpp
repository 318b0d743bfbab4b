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
//     another build.
//
//   harena-corpus-cpu-bench [--rounds N] [--only NAME] [--threads N]
//
// Rounds are rounded up to a multiple of 9.
#include "host_corpus.h"
#include "median.h"

#include "harena/arena.hpp"

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

}  // namespace

int main(int argc, char **argv) {
    int rounds = 27, threads = 0;
    std::string only;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (arg == "--rounds" && i + 1 < argc) {
            rounds = std::atoi(argv[++i]);
        } else if (arg == "--only" && i + 1 < argc) {
            only = argv[++i];
        } else if (arg == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: %s [--rounds N] [--only NAME] [--threads N]\n", argv[0]);
            return 2;
        }
    }
    // Every call meets every set in every position equally often.
    constexpr int kPeriod = kRoundCalls * kRoundCalls;
    rounds = std::max(1, (rounds + kPeriod - 1) / kPeriod) * kPeriod;
    if (threads > 0) {
        halide_set_num_threads(threads);
    }
    std::printf("| pipeline | default ms | plan ms | plan / default [95%% interval] | default / default [95%% interval] "
                "| heap allocations per call, default | plan | slot tasks per call | slot fallbacks | arena bytes |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Pipeline &p : host_pipelines()) {
        if (!only.empty() && only != p.name) {
            continue;
        }
        Workload sets[kRoundCalls] = {p.make(1.0), p.make(1.0), p.make(1.0)};
        for (Workload &w : sets) {
            p.write(w, 0);
        }
        const uint64_t bytes = harena::measure([&](void *uc) { return p.planned(uc, sets[0]); });
        harena::Arena arena = harena::Arena::host(std::max<uint64_t>(bytes, 256));
        const auto run = [&](int call, Workload &w) {
            return call == kPlan ? timed([&] { return p.planned(arena.get(), w); }) : timed([&] { return p.plain(w); });
        };
        for (int warm = 0; warm < 2; warm++) {
            for (int k = 0; k < kRoundCalls; k++) {
                run(k, sets[k]);
            }
        }
        if (!same_outputs(p, sets)) {
            return 1;
        }
        (void)harena_reset_stats(arena.get());
        std::vector<double> seconds[kRoundCalls];
        long heap[kRoundCalls] = {};
        for (int r = 0; r < rounds; r++) {
            // Call k of round r: which of the three it is, on the round's set.
            const int set = r % kRoundCalls;
            for (int k = 0; k < kRoundCalls; k++) {
                const int call = (r / kRoundCalls + k) % kRoundCalls;
                (void)run(call, sets[set]);  // the untimed call before it
                const Timed t = run(call, sets[set]);
                seconds[call].push_back(t.seconds);
                heap[call] += t.heap_allocations;
            }
        }
        if (!same_outputs(p, sets)) {
            return 1;
        }
        const harena::Stats stats = arena.stats();
        const Ratio plan = round_ratios(seconds[kPlan], seconds[kDefault]),
                    noise_floor = round_ratios(seconds[kDefaultAgain], seconds[kDefault]);
        const double plan_calls = 2.0 * rounds;  // each timed call and the untimed one before it
        std::printf("| %s | %.3f | %.3f | %.3f [%.3f, %.3f] | %.3f [%.3f, %.3f] | %.1f | %.1f | %.1f | %llu | %llu |\n",
                    p.name, harena_bench::median(seconds[kDefault]) * 1e3, harena_bench::median(seconds[kPlan]) * 1e3,
                    plan.median, plan.interval.low, plan.interval.high, noise_floor.median, noise_floor.interval.low,
                    noise_floor.interval.high, double(heap[kDefault]) / rounds, double(heap[kPlan]) / rounds,
                    double(stats.slot_tasks) / plan_calls, static_cast<unsigned long long>(stats.slot_fallbacks),
                    static_cast<unsigned long long>(bytes));
        std::fflush(stdout);
    }
    return 0;
}
