// The corpus' CUDA builds through a CUDA graph cache, on an arena with its own
// stream, as the README tells a program to: inputs uploaded on the arena's
// stream, outputs on the device. Two routes: the planned build, on an arena
// sized by asking the pipeline (harena::measure), and the plain build
// (unchanged: no arena feature), whose device allocations reach the arena
// through the override linked into this program, on an arena sized by
// running it. Six calls per pipeline and size, each with new input values
// written into the same device buffers and outputs poisoned first, with two
// keys interleaved: the scalar arguments alternate call by call between those
// of the drivers' first and second calls. Each key's first call runs, its
// second is captured, the rest replay its graph (a pipeline whose plan says
// it is not capturable runs every call, each after the keys' first counted as
// a fallback for that reason), and every call equals the plain build's output
// for the same values bit for bit, with no cuMemAlloc during a replay. A
// host stage that tabulates from the scalars (color_grade's tone curve) thus
// replays its own key's table. Skips where no CUDA device is usable.
#include "corpus_graph_calls.h"
#include "cuda_corpus.h"

#include "HalideRuntimeCuda.h"
#include "cuda_driver.h"
#include "cuda_test.h"
#include "harena/graph.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

using namespace harena_corpus;

namespace {

// Which build the cache calls: the planned one, or the plain one with its
// inputs' device copies marked newer, or as RunGen passes them (host and
// device copies alike current).
enum class Route { planned,
                   unchanged,
                   unchanged_host_inputs };

const char *name_of(Route route) {
    return route == Route::planned ? "planned" : route == Route::unchanged ? "unchanged" :
                                                                             "unchanged_host_inputs";
}

// For gtest's messages.
void PrintTo(Route route, std::ostream *os) {
    *os << name_of(route);
}

using GpuCorpusGraph = harena_test::CudaTestWithParam<std::tuple<Pipeline, Size, Route>>;

// Keys interleaved call by call (the cache holds this many graphs).
constexpr int kKeys = 2;

std::string joined(const std::vector<std::string> &messages) {
    std::string out;
    for (const std::string &m : messages) {
        out += "\n  " + m;
    }
    return out;
}

// On the arena's stream (the arena as the copy's user_context): ordered
// before the call that reads them.
void upload(harena::Arena &arena, std::vector<Buffer<>> &buffers) {
    for (Buffer<> &b : buffers) {
        ASSERT_EQ(b.copy_to_device(halide_cuda_device_interface(), arena.get()), 0);
    }
}

// The arena size the pipeline asks for, the largest over the keys. A
// pipeline that plans nothing runs instead of answering (its size is 0):
// its outputs then come back to the host, as after any call.
uint64_t arena_bytes_for(const Pipeline &p, Workload &w) {
    uint64_t bytes = 0;
    for (int key = 0; key < kKeys; key++) {
        w.call = key;
        bytes = std::max(bytes, harena::measure([&](void *a) { return p.planned(a, w); }));
        EXPECT_EQ(read_back(w), 0);
    }
    return bytes;
}

// What the plain build's calls bump through the override, the most over the
// keys: run in scopes on an arena that grows until a pass needs no growth.
uint64_t override_bytes_for(const Pipeline &p, Workload &w) {
    harena::Options options;
    options.grow = true;                                  // an overflow makes the next scope's arena large enough...
    options.overflow = harena::OverflowPolicy::fallback;  // ...and its allocation goes to Halide's allocator
    harena::Arena scratch = harena::Arena::device(halide_cuda_device_interface(), 1 << 20, options);
    for (int pass = 0; pass < 8; pass++) {
        scratch.reset_stats();
        for (int key = 0; key < kKeys; key++) {
            w.call = key;
            harena::Scope scope(scratch);
            EXPECT_EQ(p.plain(w), 0);
        }
        EXPECT_EQ(read_back(w), 0);
        if (scratch.stats().overflows == 0) {
            return scratch.stats().high_water;
        }
    }
    ADD_FAILURE() << "the override's arena still grew after 8 passes";
    return 0;
}

int run_through_graphs(Route route, harena_graph_cache *graphs, const Pipeline &p, Workload &w, int *outcome) {
    return route == Route::planned ? run_planned_through_graphs(graphs, p, w, outcome) :
                                     run_plain_through_graphs(graphs, p, w, outcome);
}

// New inputs on the device and poisoned outputs, once the last call (maybe
// a replay still reading the last inputs) is done. `device_newer`: the
// inputs' device copies are marked newer than their host copies, which no
// host stage of the call can then read without a copy the graph repeats, so
// a plain build's host stages may write blocks the graph owns
// (graph/unplanned_calls.h).
void stage_call(harena::Arena &arena, Workload &w, bool device_newer) {
    harena::synchronize(arena);
    for (Buffer<> &in : w.inputs) {
        in.set_device_dirty(false);  // the host copy was just written
    }
    upload(arena, w.inputs);
    for (Buffer<> &in : w.inputs) {
        if (device_newer) {
            in.set_device_dirty();
        }
    }
    for (Buffer<> &out : w.outputs) {
        std::memset(out.data(), 0xA5, out.size_in_bytes());
        out.set_host_dirty();
    }
    upload(arena, w.outputs);
}

// The cache's latest cause of a fallback for `reason` (empty if none).
std::string fallback_cause(const harena_graph_cache *graphs, int reason) {
    const int length = harena_graph_fallback_cause(graphs, reason, nullptr, 0);
    std::string cause(static_cast<size_t>(std::max(length, 0)) + 1, '\0');
    (void)harena_graph_fallback_cause(graphs, reason, cause.data(), cause.size());
    cause.resize(static_cast<size_t>(std::max(length, 0)));
    return cause;
}

// Whether the route's build replays: as the plan says. A host stage that
// fills a buffer the GPU reads (color_grade's tone curve) writes a block the
// graph owns: the plan's key-host buffer, or, in the plain build whose
// inputs' device copies are newer, its halide_malloc block. With inputs
// whose host copies are current, a plain build's host stage could read them
// unseen: the upload from the memory the call frees is refused (the route
// runs only for pipelines with such a stage).
bool replays(Route route, const Pipeline &p) {
    return p.capturable && route != Route::unchanged_host_inputs;
}

// The pipelines whose plain build uploads what a host stage wrote.
std::vector<Pipeline> with_host_stage_uploads() {
    std::vector<Pipeline> out;
    for (const Pipeline &p : cuda_pipelines()) {
        if (std::strcmp(p.name, "color_grade") == 0) {
            out.push_back(p);
        }
    }
    return out;
}

// Each call's outcome: both keys run, then are captured, then replay; or,
// where the plan says the pipeline is not capturable, fall back after the
// keys' first calls.
std::vector<int> expected_outcomes(bool capturable) {
    return capturable ? std::vector<int>{HARENA_GRAPH_RAN, HARENA_GRAPH_RAN, HARENA_GRAPH_CAPTURED,
                                         HARENA_GRAPH_CAPTURED, HARENA_GRAPH_REPLAYED, HARENA_GRAPH_REPLAYED} :
                        std::vector<int>{HARENA_GRAPH_RAN, HARENA_GRAPH_RAN, HARENA_GRAPH_FELL_BACK,
                                         HARENA_GRAPH_FELL_BACK, HARENA_GRAPH_FELL_BACK, HARENA_GRAPH_FELL_BACK};
}

TEST_P(GpuCorpusGraph, ReplaysMatchThePlainBuildOnNewInputs) {
    const Pipeline &p = std::get<0>(GetParam());
    const double scale = std::get<1>(GetParam()).scale;
    const Route route = std::get<2>(GetParam());
    ErrorLog::install();
    (void)ErrorLog::take();
    Workload ref = p.make(scale);
    Workload w = p.make(scale);
    p.write(w, 0);
    const uint64_t bytes = route == Route::planned ? arena_bytes_for(p, w) : override_bytes_for(p, w);
    harena::Arena arena = harena::Arena::device(halide_cuda_device_interface(), bytes > 0 ? bytes : 256);
    harena::use_own_stream(arena);
    harena_graph_cache *raw = nullptr;
    ASSERT_EQ(harena_graph_cache_create(arena.get(), kKeys, &raw), 0);
    std::unique_ptr<harena_graph_cache, int (*)(harena_graph_cache *)> graphs(raw, harena_graph_cache_destroy);
    for (Buffer<> &out : w.outputs) {
        ASSERT_EQ(out.device_malloc(halide_cuda_device_interface()), 0);
    }
    std::vector<int> outcomes;
    int replay_driver_allocations = 0;
    for (int call = 0; call < 6; call++) {
        SCOPED_TRACE("call " + std::to_string(call));
        p.write(ref, call);
        p.write(w, call);
        ref.call = w.call = call % kKeys;  // new values, the key's scalars
        ASSERT_EQ(p.plain(ref), 0) << joined(ErrorLog::take());
        ASSERT_EQ(read_back(ref), 0);
        ASSERT_NO_FATAL_FAILURE(stage_call(arena, w, route == Route::unchanged));
        harena_test::reset_cuda_driver_counts();
        int outcome = -1;
        ASSERT_EQ(run_through_graphs(route, graphs.get(), p, w, &outcome), 0) << joined(ErrorLog::take());
        // The planned route waits through the cache, so its graphs end with
        // the completion signal (captured after the first wait); the plain
        // route waits on the arena's stream, as a caller that never calls
        // harena_graph_wait does, so its graphs end without it.
        if (route == Route::planned) {
            ASSERT_EQ(harena_graph_wait(graphs.get()), 0) << joined(ErrorLog::take());
        } else {
            harena::synchronize(arena);
        }
        if (outcome == HARENA_GRAPH_REPLAYED) {
            replay_driver_allocations += harena_test::cuda_driver_counts().allocations;
        }
        outcomes.push_back(outcome);
        ASSERT_EQ(read_back(w), 0);
        EXPECT_EQ(difference(ref, w), "") << "outcome " << outcome;
    }
    EXPECT_EQ(outcomes, expected_outcomes(replays(route, p)));
    if (route == Route::unchanged_host_inputs) {
        harena_graph_stats stats;
        ASSERT_EQ(harena_graph_get_stats(graphs.get(), &stats), 0);
        EXPECT_EQ(stats.fallbacks[HARENA_GRAPH_CAPTURE_FAILED], 4u) << "the graph's copies read host memory";
        // The cause names the copy and the input, on the real driver.
        const std::string cause = fallback_cause(graphs.get(), HARENA_GRAPH_CAPTURE_FAILED);
        EXPECT_NE(cause.find("bytes of host memory at 0x"), std::string::npos) << cause;
        EXPECT_NE(cause.find("Buffer argument 0 has a current host copy"), std::string::npos) << cause;
    }
    if (!p.capturable && route == Route::planned) {
        harena_graph_stats stats;
        ASSERT_EQ(harena_graph_get_stats(graphs.get(), &stats), 0);
        EXPECT_EQ(stats.fallbacks[HARENA_GRAPH_NOT_CAPTURABLE], 4u);
        EXPECT_EQ(stats.captures, 0u);
        const std::string cause = fallback_cause(graphs.get(), HARENA_GRAPH_NOT_CAPTURABLE);
        EXPECT_NE(cause.find("declared itself not capturable"), std::string::npos) << cause;
    }
    // Kernels that write different outputs from the same input run side by
    // side in the replays (graph/concurrent_kernels.h), on both routes.
    const char *order = std::getenv("HARENA_GRAPH_KERNEL_ORDER");
    const bool side_by_side = order == nullptr || std::strcmp(order, "captured") != 0;
    if (side_by_side && (std::strcmp(p.name, "mip_levels") == 0 || std::strcmp(p.name, "yuv_planes") == 0)) {
        harena_graph_stats stats;
        ASSERT_EQ(harena_graph_get_stats(graphs.get(), &stats), 0);
        EXPECT_GE(stats.unordered_edges, 2u * kKeys) << "each output's kernel still waits for the one before";
    }
    EXPECT_EQ(replay_driver_allocations, 0);
    EXPECT_EQ(joined(ErrorLog::take()), "") << "the runtime reported errors";
}

// What the plans say, checked where no GPU is needed: a pipeline with no
// device buffer to plan (every stage fused into its outputs' GPU tiles)
// allocates nothing in a call, so its plan declares it capturable; the
// corpus holds such pipelines written by hand.
TEST(CorpusGraphPlans, EveryPipelineWithNothingToPlanIsCapturable) {
    std::vector<std::string> nothing_to_plan;
    for (const CudaCorpusEntry &e : cuda_corpus()) {
        if (e.planned_buffers == 0) {
            nothing_to_plan.push_back(e.pipeline.name);
            EXPECT_TRUE(e.pipeline.capturable) << e.pipeline.name;
        }
    }
    for (const char *tile_fused : {"yuv_planes", "mip_levels"}) {
        EXPECT_NE(std::find(nothing_to_plan.begin(), nothing_to_plan.end(), tile_fused), nothing_to_plan.end())
            << tile_fused << " plans a device buffer: its schedule no longer fuses every stage into its tiles";
    }
}

// Below and at the estimates (twice them is covered by the RunGen-style
// test; nl_means alone needs about 0.5 GiB there).
const Size kGraphSizes[] = {kSizes[0], kSizes[1]};

std::string case_name(const ::testing::TestParamInfo<GpuCorpusGraph::ParamType> &info) {
    return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name + "_" +
           name_of(std::get<2>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Corpus, GpuCorpusGraph,
                         ::testing::Combine(::testing::ValuesIn(cuda_pipelines()), ::testing::ValuesIn(kGraphSizes),
                                            ::testing::Values(Route::planned, Route::unchanged)),
                         case_name);

INSTANTIATE_TEST_SUITE_P(HostInputs, GpuCorpusGraph,
                         ::testing::Combine(::testing::ValuesIn(with_host_stage_uploads()),
                                            ::testing::ValuesIn(kGraphSizes),
                                            ::testing::Values(Route::unchanged_host_inputs)),
                         case_name);

}  // namespace
