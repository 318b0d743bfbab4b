// Every regime's way of calling a corpus pipeline, and the arenas they use:
// the plan's, sized by asking the planned build for each step's bytes; the
// override's, sized by running the steps on a growing arena; and the two
// graph regimes' arenas, each with a stream and a graph cache of its own.
#pragma once

#include "measure.h"

#include "harena/arena.hpp"
#include "harena/cuda.h"
#include "harena/graph.hpp"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace corpus_bench {

// Ends the program with `what` and the pipelines' error messages.
[[noreturn]] void fail(const std::string &what);
// fail() unless `code` is 0.
void check(int code, const std::string &what);

class Regimes {
public:
    // Makes one untimed call of every step under Halide's default first
    // (module loading, the GPU's clocks), then sizes and makes the arenas.
    Regimes(const CorpusPipeline &pipeline, std::vector<Step> &steps);
    ~Regimes();
    Regimes(const Regimes &) = delete;
    Regimes &operator=(const Regimes &) = delete;

    // One call of `step` in `regime`; ends the program if the pipeline fails.
    void run(Regime regime, Step &step);
    // A graph regime's cache statistics, as one line.
    [[nodiscard]] std::string graph_cache_counts(Regime regime) const;
    // The arena's figures after every call so far (zero for Halide's default).
    void arena_use(Regime regime, RegimeResult &r) const;

private:
    [[nodiscard]] std::string what(const char *build, const Step &step) const;
    void run_in_scope(harena::Arena &arena, Step &step);
    uint64_t measured_plan_bytes();
    uint64_t calibrated_override_bytes(uint64_t plan_bytes);

    const CorpusPipeline &pipeline_;
    std::vector<Step> &steps_;
    std::optional<harena::Arena> plan_, override_, graph_arena_, override_graph_arena_;
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> graphs_{nullptr, harena_graph_cache_destroy};
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> override_graphs_{nullptr,
                                                                                        harena_graph_cache_destroy};
};

}  // namespace corpus_bench
