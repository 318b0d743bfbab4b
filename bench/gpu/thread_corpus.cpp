// The corpus's part of the threaded benchmark: local_laplacian and
// guided_upsample (generators/corpus), built for this benchmark's Halide
// runtime and called through the corpus drivers (tests/support/corpus) on
// device-resident arguments, as harena-corpus-bench calls them.
#include "thread_workloads.h"

#include "corpus_graph_calls.h"
#include "device_steps.h"

#include "bench_guided_upsample.h"
#include "bench_guided_upsample_arena.h"
#include "bench_local_laplacian.h"
#include "bench_local_laplacian_arena.h"

#include "HalideRuntime.h"
#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {
namespace {

// Fixed: every spatial extent half the generator's estimate. Varying: this
// many seeded scales of the estimates in [0.25, 1], a different one on every
// call. Below the corpus benchmark's sizes, so that 16 threads' buffers and
// arenas fit on one GPU and launches weigh more than at full size.
constexpr double kFixedScale = 0.5;
constexpr int kVaryingSteps = 16;
constexpr double kSmallest = 0.25, kLargest = 1.0;
constexpr uint64_t kSeed = 24;

void check(int result, const char *what) {
    if (result != 0) {
        std::fprintf(stderr, "harena-threads-bench: %s failed (%d): %s\n", what, result, harena_last_error());
        std::exit(1);
    }
}

class CorpusWorkload final : public ThreadWorkload {
public:
    CorpusWorkload(const harena_corpus::Pipeline &pipeline, const std::vector<double> &scales)
        : pipeline_(pipeline), steps_(harena_corpus::make_steps(pipeline, scales)) {
    }

    [[nodiscard]] size_t steps() const override {
        return steps_.size();
    }
    int plain(size_t i) override {
        return pipeline_.plain(steps_[i].args);
    }
    int planned(size_t i, harena_arena *arena) override {
        return pipeline_.planned(arena, steps_[i].args);
    }
    int through_graphs(size_t i, harena_graph_cache *cache) override {
        return harena_corpus::run_planned_through_graphs(cache, pipeline_, steps_[i].args, nullptr);
    }
    int sync(size_t i, void *user_context) override {
        for (auto &out : steps_[i].args.outputs) {
            if (const int result = halide_device_sync(user_context, out.raw_buffer())) {
                return result;
            }
        }
        return 0;
    }
    void poison(size_t i) override {
        harena_corpus::poison_outputs(steps_[i]);
    }
    [[nodiscard]] std::vector<uint8_t> output(size_t i) override {
        check(harena_corpus::read_back(steps_[i].args), "copying an output to the host");
        std::vector<uint8_t> bytes;
        for (const auto &out : steps_[i].args.outputs) {
            const auto *data = static_cast<const uint8_t *>(out.data());
            bytes.insert(bytes.end(), data, data + out.size_in_bytes());
        }
        return bytes;
    }
    // The override allocates the plan's intermediates in Halide's order and
    // frees them in Halide's; the corpus declares estimates only, so its plan
    // has no worst case to read. A growing arena runs every step in a scope
    // until one pass needs no growth: its high-water mark is then what the
    // calls need.
    [[nodiscard]] uint64_t override_bytes() override {
        harena_options options;
        harena_options_init(&options);
        options.overflow_policy = HARENA_OVERFLOW_FALLBACK;
        options.grow = 1;
        harena_arena *arena = nullptr;
        check(harena_create(nullptr, halide_cuda_device_interface(), 2 * planned_bytes(), &options, &arena),
              "harena_create");
        harena_stats stats{};
        for (int pass = 0; pass < 8 && (pass == 0 || stats.overflows != 0); pass++) {
            check(harena_reset_stats(arena), "harena_reset_stats");
            for (size_t i = 0; i < steps_.size(); i++) {
                harena_scope scope;
                check(harena_scope_begin(&scope, arena), "harena_scope_begin");
                const int result = plain(i);
                check(harena_scope_end(&scope), "harena_scope_end");
                check(result, "the plain pipeline in a scope");
                check(sync(i, nullptr), "halide_device_sync");
            }
            check(harena_get_stats(arena, &stats), "harena_get_stats");
        }
        check(harena_destroy(arena), "harena_destroy");
        if (stats.overflows != 0) {
            std::fprintf(stderr, "harena-threads-bench: %s: the override's arena still overflowed after 8 passes\n",
                         pipeline_.name);
            std::exit(1);
        }
        return std::max<uint64_t>(stats.high_water, 1);
    }

private:
    const harena_corpus::Pipeline &pipeline_;
    std::vector<harena_corpus::Step> steps_;

    // The most any step's planned call needs, asked of the pipeline.
    uint64_t planned_bytes() {
        uint64_t most = 0;
        for (size_t i = 0; i < steps_.size(); i++) {
            most = std::max(most, harena::measure([&](void *arena) {
                                return planned(i, static_cast<harena_arena *>(arena));
                            }));
        }
        return std::max<uint64_t>(most, 1);
    }
};

const harena_corpus::Pipeline &local_laplacian() {
    static const harena_corpus::Pipeline p =
        harena_corpus::entry<harena_corpus::LocalLaplacian<bench_local_laplacian, bench_local_laplacian_arena>>(
            "local_laplacian");
    return p;
}

const harena_corpus::Pipeline &guided_upsample() {
    static const harena_corpus::Pipeline p =
        harena_corpus::entry<harena_corpus::GuidedUpsample<bench_guided_upsample, bench_guided_upsample_arena>>(
            "guided_upsample");
    return p;
}

}  // namespace

std::vector<ThreadWorkloadSpec> corpus_thread_workload_specs() {
    char fixed[32], varies[64];
    std::snprintf(fixed, sizeof fixed, "%gx estimates", kFixedScale);
    std::snprintf(varies, sizeof varies, "varies %g-%gx estimates", kSmallest, kLargest);
    std::vector<ThreadWorkloadSpec> specs;
    for (const harena_corpus::Pipeline *p : {&local_laplacian(), &guided_upsample()}) {
        specs.push_back({std::string(p->name) + " " + fixed,
                         [p] { return std::make_unique<CorpusWorkload>(*p, std::vector<double>{kFixedScale}); }});
        specs.push_back({std::string(p->name) + " " + varies, [p] {
                             return std::make_unique<CorpusWorkload>(
                                 *p, harena_corpus::seeded_scales(kVaryingSteps, kSmallest, kLargest, kSeed));
                         }});
    }
    return specs;
}

}  // namespace bench
