#include "regimes.h"

#include "corpus_graph_calls.h"
#include "driver.h"
#include "graph_stats_text.h"

#include "HalideRuntimeCuda.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace corpus_bench {

void fail(const std::string &what) {
    std::fprintf(stderr, "harena-corpus-bench: %s\n", what.c_str());
    for (const std::string &m : harena_corpus::ErrorLog::take()) {
        std::fprintf(stderr, "  %s\n", m.c_str());
    }
    std::exit(1);
}

void check(int code, const std::string &what) {
    if (code != 0) {
        fail(what + " failed (" + std::to_string(code) + ")");
    }
}

namespace {

// Arenas take their memory with Halide's cache off, so that it comes from
// the driver at exactly their capacity (not a larger block Halide cached),
// and give it back to the driver rather than to Halide's cache, where the
// default regime of the next workload would find it.
harena::Arena device_arena(uint64_t capacity, const harena::Options &options) {
    halide_reuse_device_allocations(nullptr, false);
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), capacity, options);
    halide_reuse_device_allocations(nullptr, true);
    return arena;
}

// An allocation that does not fit goes to Halide's allocator and is counted
// (and shows as cuMemAlloc calls) rather than ending a long run.
harena::Options fallback_options() {
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    return options;
}

}  // namespace

Regimes::Regimes(const CorpusPipeline &pipeline, std::vector<Step> &steps)
    : pipeline_(pipeline), steps_(steps) {
    // Module loading and the GPU's clocks: one untimed call of every
    // step in Halide's default before anything is sized or timed.
    for (Step &s : steps_) {
        run(Regime::halide_default, s);
    }
    bench::synchronize();
    const uint64_t plan_bytes = measured_plan_bytes();
    plan_.emplace(device_arena(std::max<uint64_t>(plan_bytes, 256), fallback_options()));
    override_.emplace(device_arena(calibrated_override_bytes(plan_bytes), fallback_options()));
    // The graph regime: the plan's capacity, a stream of its own, and
    // room for a graph per size of the workload.
    graph_arena_.emplace(device_arena(std::max<uint64_t>(plan_bytes, 256), fallback_options()));
    harena::use_own_stream(*graph_arena_);
    harena_graph_cache *cache = nullptr;
    check(harena_graph_cache_create(graph_arena_->get(), static_cast<uint32_t>(steps_.size()), &cache),
          "creating the graph cache");
    graphs_.reset(cache);
    // The override's graph regime: the override's capacity, the rest as above.
    override_graph_arena_.emplace(device_arena(override_->capacity(), fallback_options()));
    harena::use_own_stream(*override_graph_arena_);
    check(harena_graph_cache_create(override_graph_arena_->get(), static_cast<uint32_t>(steps_.size()), &cache),
          "creating the override's graph cache");
    override_graphs_.reset(cache);
}

Regimes::~Regimes() {
    bench::synchronize();
    halide_reuse_device_allocations(nullptr, false);
    graphs_.reset();  // the graphs before the arena their kernels point into
    graph_arena_.reset();
    override_graphs_.reset();
    override_graph_arena_.reset();
    override_.reset();
    plan_.reset();
    halide_reuse_device_allocations(nullptr, true);
}

void Regimes::run(Regime regime, Step &step) {
    switch (regime) {
    case Regime::halide_default:
        check(pipeline_.calls.plain(step.args), what("the plain build", step));
        break;
    case Regime::arena_override:
        run_in_scope(*override_, step);
        break;
    case Regime::arena_plan:
        check(pipeline_.calls.planned(plan_->get(), step.args), what("the arena build", step));
        break;
    case Regime::arena_graph:
        check(harena_corpus::run_planned_through_graphs(graphs_.get(), pipeline_.calls, step.args, nullptr),
              what("the arena build through the graph cache", step));
        break;
    case Regime::override_graph:
        check(harena_corpus::run_plain_through_graphs(override_graphs_.get(), pipeline_.calls, step.args, nullptr),
              what("the plain build through the override's graph cache", step));
        break;
    default:
        std::fprintf(stderr, "harena-corpus-bench: regime %s needs a build this benchmark does not make\n",
                     regime_name(regime));
        std::exit(2);
    }
}

std::string Regimes::graph_cache_counts(Regime regime) const {
    harena_graph_stats stats;
    check(harena_graph_get_stats(regime == Regime::arena_graph ? graphs_.get() : override_graphs_.get(), &stats),
          "reading the graph cache's statistics");
    return bench::graph_cache_counts(stats);
}

void Regimes::arena_use(Regime regime, RegimeResult &r) const {
    if (regime == Regime::halide_default) {
        return;
    }
    const harena::Arena &arena = regime == Regime::arena_plan     ? *plan_ :
                                 regime == Regime::arena_graph    ? *graph_arena_ :
                                 regime == Regime::override_graph ? *override_graph_arena_ :
                                                                    *override_;
    const harena::Stats stats = arena.stats();
    r.arena_capacity = stats.capacity;
    r.arena_high_water = stats.high_water;
    r.arena_fallbacks = stats.fallbacks;
}

std::string Regimes::what(const char *build, const Step &step) const {
    return std::string(pipeline_.calls.name) + ", " + build + " at " + shape(step);
}

void Regimes::run_in_scope(harena::Arena &arena, Step &step) {
    harena_scope scope;
    check(harena_scope_begin(&scope, arena.get()), what("a scope", step));
    const int code = pipeline_.calls.plain(step.args);
    check(harena_scope_end(&scope), what("a scope's end", step));
    check(code, what("the plain build in a scope", step));
}

// What a program that knows its sizes gives the planned build: the most
// any of its calls needs, asked of the pipeline (no stage runs).
uint64_t Regimes::measured_plan_bytes() {
    uint64_t most = 0;
    for (Step &s : steps_) {
        most = std::max(most, harena::measure([&](void *arena) { return pipeline_.calls.planned(arena, s.args); }));
    }
    return most;
}

// The override allocates the same intermediates in Halide's order and
// frees them in Halide's order, reusing bytes only when the freed block
// was the latest: what it needs is found by running the calls. A growing
// arena (an overflow makes the next scope large enough) runs them until
// one pass needs no growth; its high-water mark is then exact.
uint64_t Regimes::calibrated_override_bytes(uint64_t plan_bytes) {
    harena::Options options = fallback_options();
    options.grow = true;
    uint64_t needed = 0;
    {
        harena::Arena scratch = device_arena(std::max<uint64_t>(4 * plan_bytes, 1 << 20), options);
        for (int pass = 0; pass < 8 && needed == 0; pass++) {
            scratch.reset_stats();
            for (Step &s : steps_) {
                run_in_scope(scratch, s);
            }
            bench::synchronize();
            const harena::Stats stats = scratch.stats();
            if (stats.overflows == 0) {
                needed = std::max<uint64_t>(stats.high_water, 256);
            }
        }
        halide_reuse_device_allocations(nullptr, false);  // its regions back to the driver
    }
    halide_reuse_device_allocations(nullptr, true);
    if (needed == 0) {
        fail(std::string(pipeline_.calls.name) + ": the override's arena still overflowed after 8 passes");
    }
    return needed;
}

}  // namespace corpus_bench
