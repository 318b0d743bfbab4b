#include "workloads.h"

#include "bench_chain4.h"
#include "bench_chain4_arena.arena.h"
#include "bench_chain4_arena.h"
#include "bench_chain4_ideal.h"
#include "bench_pyramid.h"
#include "bench_pyramid_arena.arena.h"
#include "bench_pyramid_arena.h"
#include "bench_pyramid_ideal.h"
#include "bench_small_chain.h"
#include "bench_small_chain_arena.arena.h"
#include "bench_small_chain_arena.h"
#include "bench_small_chain_ideal.h"
#include "bench_variable_k.h"
#include "bench_variable_k_arena.arena.h"
#include "bench_variable_k_arena.h"
#include "bench_variable_k_ideal.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <utility>

namespace bench {
namespace {

// Distinct sizes per batch in the workloads whose size varies.
constexpr int kSequence = 32;

const App &variable_k_app() {
    static const App app{"variable_k",
                         bench_variable_k_argv,
                         bench_variable_k_arena_argv,
                         bench_variable_k_ideal_argv,
                         bench_variable_k_arena_metadata,
                         bench_variable_k_ideal_metadata,
                         BENCH_VARIABLE_K_ARENA_ARENA_BYTES,
                         BENCH_VARIABLE_K_ARENA_ARENA_LOWER_BOUND,
                         BENCH_VARIABLE_K_ARENA_ARENA_CAPTURABLE != 0,
                         bench_variable_k_arena_arena_plan_json};
    return app;
}

const App &pyramid_app() {
    static const App app{"pyramid",
                         bench_pyramid_argv,
                         bench_pyramid_arena_argv,
                         bench_pyramid_ideal_argv,
                         bench_pyramid_arena_metadata,
                         bench_pyramid_ideal_metadata,
                         BENCH_PYRAMID_ARENA_ARENA_BYTES,
                         BENCH_PYRAMID_ARENA_ARENA_LOWER_BOUND,
                         BENCH_PYRAMID_ARENA_ARENA_CAPTURABLE != 0,
                         bench_pyramid_arena_arena_plan_json};
    return app;
}

const App &small_chain_app() {
    static const App app{"small_chain",
                         bench_small_chain_argv,
                         bench_small_chain_arena_argv,
                         bench_small_chain_ideal_argv,
                         bench_small_chain_arena_metadata,
                         bench_small_chain_ideal_metadata,
                         BENCH_SMALL_CHAIN_ARENA_ARENA_BYTES,
                         BENCH_SMALL_CHAIN_ARENA_ARENA_LOWER_BOUND,
                         BENCH_SMALL_CHAIN_ARENA_ARENA_CAPTURABLE != 0,
                         bench_small_chain_arena_arena_plan_json};
    return app;
}

const App &chain4_app() {
    static const App app{"chain4",
                         bench_chain4_argv,
                         bench_chain4_arena_argv,
                         bench_chain4_ideal_argv,
                         bench_chain4_arena_metadata,
                         bench_chain4_ideal_metadata,
                         BENCH_CHAIN4_ARENA_ARENA_BYTES,
                         BENCH_CHAIN4_ARENA_ARENA_LOWER_BOUND,
                         BENCH_CHAIN4_ARENA_ARENA_CAPTURABLE != 0,
                         bench_chain4_arena_arena_plan_json};
    return app;
}

DeviceBlock &allocate(Workload &w, uint64_t bytes) {
    w.memory.push_back(std::make_unique<DeviceBlock>(bytes));
    return *w.memory.back();
}

DeviceView *view(Step &step, const std::vector<int> &extents, uint64_t address) {
    step.views.push_back(std::make_unique<DeviceView>(extents, address));
    return step.views.back().get();
}

// The graph cache's view of a planned call, from the planned build's
// metadata: a graph bakes in the function and every scalar's value (the key
// bytes) and every buffer's address and shape (the cache reads those itself).
void describe_for_graphs(const App &app, Step &step) {
    const halide_filter_metadata_t *metadata = app.planned_metadata();
    if (metadata->num_arguments != static_cast<int>(step.planned_args.size()) ||
        std::strcmp(metadata->arguments[0].name, "__user_context") != 0) {
        std::fprintf(stderr,
                     "harena-gpu-bench: the planned %s takes %d arguments (the first '%s'); the step has %zu, the "
                     "arena first\n",
                     app.name.c_str(), metadata->num_arguments, metadata->arguments[0].name, step.planned_args.size());
        std::exit(1);
    }
    const char *entry = reinterpret_cast<const char *>(&app.planned);
    step.graph_key.assign(entry, entry + sizeof app.planned);
    for (int i = 1; i < metadata->num_arguments; i++) {  // 0 is the arena: the cache keys on it itself
        const halide_filter_argument_t &a = metadata->arguments[i];
        if (a.kind == halide_argument_kind_input_scalar) {
            const char *value = static_cast<const char *>(step.planned_args[i]);
            step.graph_key.insert(step.graph_key.end(), value, value + (a.type.bits + 7) / 8);
        } else {
            step.graph_buffers.push_back(static_cast<halide_buffer_t *>(step.planned_args[i]));
        }
    }
}

// The shapes of a step's intermediates as the ideal build's bounds query gives
// them. An intermediate that is an output read by another output's stage
// grows with its readers' shapes, which the query fills in at the same time,
// so the query is repeated until no shape changes (Halide 21 checks the
// accesses against them).
void query_ideal_shapes(const App &app, Step &step, size_t intermediates) {
    auto shapes = [&] {
        std::vector<int32_t> all;
        for (size_t i = step.views.size() - intermediates; i < step.views.size(); i++) {
            const halide_buffer_t *b = step.views[i]->raw();
            for (int d = 0; d < b->dimensions; d++) {
                all.insert(all.end(), {b->dim[d].min, b->dim[d].extent, b->dim[d].stride});
            }
        }
        return all;
    };
    for (int attempt = 0; attempt < 16; attempt++) {
        const std::vector<int32_t> before = shapes();
        if (const int result = app.ideal(step.ideal_args.data())) {
            std::fprintf(stderr, "harena-gpu-bench: the bounds query of %s failed (%d)\n", app.name.c_str(), result);
            std::exit(1);
        }
        if (shapes() == before) {
            return;
        }
    }
    std::fprintf(stderr, "harena-gpu-bench: the bounds query of %s did not settle\n", app.name.c_str());
    std::exit(1);
}

// Completes a workload whose steps have their plain arguments: the planned
// build takes the arena first; the ideal build also takes every intermediate,
// shaped by bounds queries of the ideal build (per step) and placed in memory
// sized for the largest step.
void finish(Workload &w) {
    const halide_filter_metadata_t *metadata = w.app->ideal_metadata();
    const size_t first = w.steps.front()->plain_args.size();
    std::vector<uint64_t> largest(metadata->num_arguments - first, 0);
    std::set<std::string> labels;
    for (auto &step : w.steps) {
        labels.insert(step->label);
        step->planned_args = step->plain_args;
        step->planned_args.insert(step->planned_args.begin(), &w.arena);
        describe_for_graphs(*w.app, *step);
        step->ideal_args = step->plain_args;
        for (size_t i = first; i < (size_t)metadata->num_arguments; i++) {
            step->views.push_back(std::make_unique<DeviceView>(metadata->arguments[i].dimensions));
            step->ideal_args.push_back(step->views.back()->raw());
        }
        query_ideal_shapes(*w.app, *step, largest.size());
        for (size_t i = 0; i < largest.size(); i++) {
            largest[i] = std::max(largest[i], step->views[step->views.size() - largest.size() + i]->bytes());
        }
    }
    w.distinct_sizes = static_cast<int>(labels.size());
    w.varies = w.distinct_sizes > 1;
    for (size_t i = 0; i < largest.size(); i++) {
        const uint64_t address = allocate(w, largest[i]).address();
        w.ideal_bytes += largest[i];
        for (auto &step : w.steps) {
            step->views[step->views.size() - largest.size() + i]->bind(address);
        }
    }
}

std::unique_ptr<Workload> variable_k(const std::string &size, const std::vector<int> &ks) {
    auto w = std::make_unique<Workload>();
    w->app = &variable_k_app();
    w->size = size;
    const int features = 16, candidates = 20000, outputs = 32;
    DeviceBlock &input = allocate(*w, uint64_t(features) * candidates * sizeof(float));
    input.fill_random(1, -1.0f, 1.0f);
    const uint64_t output = allocate(*w, outputs * sizeof(float)).address();
    for (int k : ks) {
        auto step = std::make_unique<Step>();
        step->label = "k=" + std::to_string(k);
        step->int_scalar = k;
        DeviceView *in = view(*step, {features, candidates}, input.address());
        step->output = view(*step, {outputs}, output);
        step->plain_args = {in->raw(), &step->int_scalar, step->output->raw()};
        w->steps.push_back(std::move(step));
    }
    finish(*w);
    return w;
}

// An image app's workload: input and output of each step's shape, at the
// start of blocks sized for the largest; the pyramid also takes its alpha.
std::unique_ptr<Workload> image(const App &app, const std::string &size, const std::vector<std::pair<int, int>> &shapes,
                                bool with_alpha) {
    auto w = std::make_unique<Workload>();
    w->app = &app;
    w->size = size;
    uint64_t largest = 0;
    for (auto [width, height] : shapes) {
        largest = std::max(largest, uint64_t(width) * height * sizeof(float));
    }
    DeviceBlock &input = allocate(*w, largest);
    input.fill_random(2, 0.0f, 1.0f);
    const uint64_t output = allocate(*w, largest).address();
    for (auto [width, height] : shapes) {
        auto step = std::make_unique<Step>();
        step->label = std::to_string(width) + "x" + std::to_string(height);
        step->float_scalar = 0.75f;
        DeviceView *in = view(*step, {width, height}, input.address());
        step->output = view(*step, {width, height}, output);
        if (with_alpha) {
            step->plain_args = {in->raw(), &step->float_scalar, step->output->raw()};
        } else {
            step->plain_args = {in->raw(), step->output->raw()};
        }
        w->steps.push_back(std::move(step));
    }
    finish(*w);
    return w;
}

std::vector<int> k_sequence() {
    std::mt19937 rng(2024);
    std::uniform_int_distribution<int> k(1, 8192);
    std::vector<int> ks(kSequence);
    for (int &v : ks) {
        v = k(rng);
    }
    return ks;
}

// Eight distinct k, each four times in a seeded order: every batch holds
// each value at least twice, so that a cache of eight graphs is warm after
// the first batch and replays every run after it.
std::vector<int> k_from_eight() {
    std::mt19937 rng(8);
    std::uniform_int_distribution<int> k(1, 8192);
    std::vector<int> values;
    while (values.size() < 8) {
        const int v = k(rng);
        if (std::find(values.begin(), values.end(), v) == values.end()) {
            values.push_back(v);
        }
    }
    std::vector<int> ks;
    for (int i = 0; i < kSequence; i++) {
        ks.push_back(values[static_cast<size_t>(i) % values.size()]);
    }
    std::shuffle(ks.begin(), ks.end(), rng);
    return ks;
}

std::vector<std::pair<int, int>> shape_sequence() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> extent(256, 2048);
    std::vector<std::pair<int, int>> shapes(kSequence);
    for (auto &s : shapes) {
        s.first = extent(rng);
        s.second = extent(rng);
    }
    return shapes;
}

}  // namespace

std::vector<WorkloadSpec> workload_specs() {
    auto square = [](int n) { return std::vector<std::pair<int, int>>{{n, n}}; };
    return {
        {"variable_k", "k=64", false, [] { return variable_k("k=64", {64}); }},
        {"variable_k", "k=8192", false, [] { return variable_k("k=8192", {8192}); }},
        {"variable_k", "k from 8 values", false, [] { return variable_k("k from 8 values", k_from_eight()); }},
        {"variable_k", "k varies 1..8192", false, [] { return variable_k("k varies 1..8192", k_sequence()); }},
        {"pyramid", "512x512", true, [=] { return image(pyramid_app(), "512x512", square(512), true); }},
        {"pyramid", "2048x2048", false, [=] { return image(pyramid_app(), "2048x2048", square(2048), true); }},
        {"pyramid", "varies 256..2048 per side", false,
         [] { return image(pyramid_app(), "varies 256..2048 per side", shape_sequence(), true); }},
        {"small_chain", "64x64", true, [=] { return image(small_chain_app(), "64x64", square(64), false); }},
        {"small_chain", "256x256", true, [=] { return image(small_chain_app(), "256x256", square(256), false); }},
        {"chain4", "64x64", true, [=] { return image(chain4_app(), "64x64", square(64), false); }},
        {"chain4", "256x256", true, [=] { return image(chain4_app(), "256x256", square(256), false); }},
    };
}

}  // namespace bench
