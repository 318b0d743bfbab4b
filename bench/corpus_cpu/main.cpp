// harena-corpus-cpu-bench: the corpus (generators/corpus) built for the
// host, each pipeline called as RunGen calls it (the same host buffers every
// call) at its estimates: Halide's default (the plain build, halide_malloc
// for every intermediate) and the plan (the arena build in a host arena of
// the bytes it asks for), alternated call by call in one run. Prints per
// pipeline the median time per call of each, their ratio, the heap
// allocations per call of each and the plan's slot tasks, after checking
// that both give the same bits. The default also runs on a second set of
// buffers in the same rounds: the ratio of its two medians is the noise
// floor of the row (buffer placement and the machine), against which the
// plan's ratio is read. A benchmark, not a test.
//
//   harena-corpus-cpu-bench [--rounds N] [--only NAME] [--threads N]
#include "host_corpus.h"
#include "median.h"

#include "harena/arena.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

}  // namespace

int main(int argc, char **argv) {
    int rounds = 21, threads = 0;
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
    if (threads > 0) {
        halide_set_num_threads(threads);
    }
    std::printf("| pipeline | default ms | plan ms | plan / default | default / default | heap allocations per call, "
                "default | plan | slot tasks per call | slot fallbacks | arena bytes |\n"
                "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Pipeline &p : host_pipelines()) {
        if (!only.empty() && only != p.name) {
            continue;
        }
        Workload plain = p.make(1.0), planned = p.make(1.0), plain_again = p.make(1.0);
        p.write(plain, 0);
        p.write(planned, 0);
        p.write(plain_again, 0);
        const uint64_t bytes = harena::measure([&](void *uc) { return p.planned(uc, planned); });
        harena::Arena arena = harena::Arena::host(std::max<uint64_t>(bytes, 256));
        for (int warm = 0; warm < 2; warm++) {
            timed([&] { return p.plain(plain); });
            timed([&] { return p.planned(arena.get(), planned); });
            timed([&] { return p.plain(plain_again); });
        }
        const std::string diff = difference(plain, planned);
        if (!diff.empty()) {
            std::fprintf(stderr, "%s: the plan's outputs differ from the default's: %s\n", p.name, diff.c_str());
            return 1;
        }
        (void)harena_reset_stats(arena.get());
        std::vector<double> plain_s, plan_s, again_s;
        long plain_heap = 0, plan_heap = 0;
        for (int r = 0; r < rounds; r++) {
            // Rotate which goes first, so that none always follows another.
            Timed a{}, b{}, c{};
            const std::function<void()> calls[] = {
                [&] { a = timed([&] { return p.plain(plain); }); },
                [&] { b = timed([&] { return p.planned(arena.get(), planned); }); },
                [&] { c = timed([&] { return p.plain(plain_again); }); },
            };
            for (int k = 0; k < 3; k++) {
                calls[(r + k) % 3]();
            }
            plain_s.push_back(a.seconds);
            plan_s.push_back(b.seconds);
            again_s.push_back(c.seconds);
            plain_heap += a.heap_allocations;
            plan_heap += b.heap_allocations;
        }
        const harena::Stats stats = arena.stats();
        const double d = harena_bench::median(plain_s), q = harena_bench::median(plan_s),
                     e = harena_bench::median(again_s);
        std::printf("| %s | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f | %.1f | %llu | %llu |\n", p.name, d * 1e3, q * 1e3,
                    q / d, e / d,
                    double(plain_heap) / rounds, double(plan_heap) / rounds, double(stats.slot_tasks) / rounds,
                    static_cast<unsigned long long>(stats.slot_fallbacks), static_cast<unsigned long long>(bytes));
        std::fflush(stdout);
    }
    return 0;
}
