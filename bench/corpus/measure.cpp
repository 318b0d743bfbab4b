#include "measure.h"

#include "driver.h"
#include "corpus_graph_calls.h"
#include "graph_stats_text.h"

#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"
#include "harena/graph.hpp"
#include "median.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

using harena_bench::median;

namespace corpus_bench {
namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void fail(const std::string &what) {
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

// Every regime's way of calling the pipeline, and the arenas two of them use.
class Regimes {
public:
    Regimes(const CorpusPipeline &pipeline, std::vector<Step> &steps)
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

    ~Regimes() {
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

    Regimes(const Regimes &) = delete;
    Regimes &operator=(const Regimes &) = delete;

    void run(Regime regime, Step &step) {
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

    std::string graph_cache_counts(Regime regime) const {
        harena_graph_stats stats;
        check(harena_graph_get_stats(regime == Regime::arena_graph ? graphs_.get() : override_graphs_.get(), &stats),
              "reading the graph cache's statistics");
        return bench::graph_cache_counts(stats);
    }

    // The arena's figures after every call so far (zero for Halide's default).
    void arena_use(Regime regime, RegimeResult &r) const {
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

private:
    std::string what(const char *build, const Step &step) const {
        return std::string(pipeline_.calls.name) + ", " + build + " at " + shape(step);
    }

    void run_in_scope(harena::Arena &arena, Step &step) {
        harena_scope scope;
        check(harena_scope_begin(&scope, arena.get()), what("a scope", step));
        const int code = pipeline_.calls.plain(step.args);
        check(harena_scope_end(&scope), what("a scope's end", step));
        check(code, what("the plain build in a scope", step));
    }

    // What a program that knows its sizes gives the planned build: the most
    // any of its calls needs, asked of the pipeline (no stage runs).
    uint64_t measured_plan_bytes() {
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
    uint64_t calibrated_override_bytes(uint64_t plan_bytes) {
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

    const CorpusPipeline &pipeline_;
    std::vector<Step> &steps_;
    std::optional<harena::Arena> plan_, override_, graph_arena_, override_graph_arena_;
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> graphs_{nullptr, harena_graph_cache_destroy};
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> override_graphs_{nullptr,
                                                                                        harena_graph_cache_destroy};
};

// After the timed rounds, every step once more in every regime, Halide's
// default first; each output poisoned before the call and read back after it.
void check_outputs(Regimes &regimes, std::vector<Step> &steps, WorkloadResult &result) {
    for (size_t i = 0; i < steps.size(); i++) {
        Step &s = steps[i];
        harena_corpus::Workload reference;
        for (int g = 0; g < kRegimeCount; g++) {
            RegimeResult &r = result.regimes[g];
            poison_outputs(s);
            bench::synchronize();  // landed before a call on the graph arena's stream
            regimes.run(kRegimes[g], s);
            bench::synchronize();
            check(harena_corpus::read_back(s.args), "reading an output back");
            if (g == kDefault) {
                r.output = "reference";
                for (auto &out : s.args.outputs) {
                    reference.outputs.push_back(out.copy());
                    const auto *bytes = static_cast<const uint8_t *>(out.data());
                    if (std::all_of(bytes, bytes + out.size_in_bytes(), [](uint8_t b) { return b == 0xA5; })) {
                        fail(std::string(result.pipeline) + ": Halide's default wrote no output at " + shape(s));
                    }
                }
                continue;
            }
            const std::string difference = harena_corpus::difference(reference, s.args);
            if (!difference.empty() && r.output_same) {
                r.output_same = false;
                r.output = "DIFFERS at " + shape(s) + ": " + difference;
            }
        }
    }
    for (int g = 0; g < kRegimeCount; g++) {
        if (g != kDefault && result.regimes[g].output_same) {
            result.regimes[g].output = "same";
        }
    }
}

// Per regime: the time of each round in us per call, and the driver calls
// of all rounds.
struct Timings {
    std::vector<double> times[kRegimeCount];
    bench::DriverCalls driver[kRegimeCount];
};

// Rounds of `calls` calls per regime, the regimes in turn (each round
// starting one further), until there are enough rounds and the time is up.
void time_rounds(Regimes &regimes, std::vector<Step> &steps, int calls, const Settings &settings, Timings &t) {
    const Clock::time_point timing = Clock::now();
    for (int round = 0; round < settings.max_rounds; round++) {
        for (int k = 0; k < kRegimeCount; k++) {
            const int g = (round + k) % kRegimeCount;
            regimes.run(kRegimes[g], steps.back());
            bench::synchronize();
            const bench::DriverCalls before = bench::driver_calls();
            const Clock::time_point t0 = Clock::now();
            for (int i = 0; i < calls; i++) {
                regimes.run(kRegimes[g], steps[static_cast<size_t>(i) % steps.size()]);
            }
            bench::synchronize();
            const Clock::time_point t1 = Clock::now();
            const bench::DriverCalls after = bench::driver_calls();
            t.times[g].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / calls);
            t.driver[g].allocations += after.allocations - before.allocations;
            t.driver[g].frees += after.frees - before.frees;
        }
        const double elapsed = std::chrono::duration<double>(Clock::now() - timing).count();
        if (round + 1 >= settings.min_rounds && elapsed > settings.seconds) {
            break;
        }
    }
}

// Each regime's medians and ratios from the rounds.
void summarize(const Timings &t, WorkloadResult &result) {
    const int calls = result.calls_per_batch;
    result.rounds = static_cast<int>(t.times[kDefault].size());
    for (int g = 0; g < kRegimeCount; g++) {
        RegimeResult &r = result.regimes[g];
        std::vector<double> ratios, to_default;
        for (int round = 0; round < result.rounds; round++) {
            ratios.push_back(t.times[kPlan][round] / t.times[g][round]);
            to_default.push_back(t.times[g][round] / t.times[kDefault][round]);
        }
        const double timed_calls = static_cast<double>(result.rounds) * calls;
        r.us_per_call = median(t.times[g]);
        r.fastest_us = *std::min_element(t.times[g].begin(), t.times[g].end());
        r.slowest_us = *std::max_element(t.times[g].begin(), t.times[g].end());
        r.plan_ratio = median(ratios);
        r.default_ratio = median(to_default);
        r.allocations_per_call = static_cast<double>(t.driver[g].allocations) / timed_calls;
        r.frees_per_call = static_cast<double>(t.driver[g].frees) / timed_calls;
    }
}

}  // namespace

WorkloadResult measure(const CorpusPipeline &pipeline, std::vector<Step> &steps, bool varies,
                       const Settings &settings) {
    const Clock::time_point start = Clock::now();
    WorkloadResult result;
    result.pipeline = pipeline.calls.name;
    result.varies = varies;
    // A varying workload's batch is its sequence once, so that every batch
    // holds the same sizes in the same order, and its untimed call is the
    // sequence's last: each batch starts where the previous one left off.
    result.calls_per_batch = varies ? static_cast<int>(steps.size()) : std::max(1, settings.calls_per_batch);
    Regimes regimes(pipeline, steps);
    Timings timings;
    time_rounds(regimes, steps, result.calls_per_batch, settings, timings);
    summarize(timings, result);
    check_outputs(regimes, steps, result);
    for (int g = 0; g < kRegimeCount; g++) {
        regimes.arena_use(kRegimes[g], result.regimes[g]);
    }
    result.regimes[kGraph].graph_cache = regimes.graph_cache_counts(Regime::arena_graph);
    result.regimes[kOverrideGraph].graph_cache = regimes.graph_cache_counts(Regime::override_graph);
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
}

}  // namespace corpus_bench
