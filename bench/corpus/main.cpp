// harena-corpus-bench: every corpus pipeline (generators/corpus) built for
// CUDA, timed in one process under Halide's default allocator, the arena
// override and the arena plan, at its estimate size and with the size
// varying on every call. Prints a table per workload as it goes, then the
// summary, the plans and the targets. See README.md.
//   harena-corpus-bench [--seconds S] [--only NAME[,NAME...]]
#include "command_line.h"
#include "device_steps.h"
#include "driver.h"
#include "measure.h"
#include "pipelines.h"
#include "report.h"

#include "harena/arena.hpp"
#include "harena/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

using namespace corpus_bench;

namespace {

// The varying workload: this many sizes, each a scale of the estimates in
// [0.5, 2], from this seed (the number), the same for every pipeline.
constexpr int kSequence = 16;
constexpr double kSmallest = 0.5, kLargest = 2.0;
constexpr uint64_t kSeed = 11;

void usage(std::FILE *to, const char *program) {
    std::fprintf(to,
                 "usage: %s [--seconds S] [--only NAME[,NAME...]]\n"
                 "  --seconds S   timed rounds per workload go on until S seconds are used (default 5; at least 5\n"
                 "                rounds whatever it is); two workloads per pipeline\n"
                 "  --only NAMES  only these pipelines, comma-separated:",
                 program);
    for (const CorpusPipeline &p : corpus()) {
        std::fprintf(to, " %s", p.calls.name);
    }
    std::fprintf(to, "\n");
}

// The selected pipelines, in the corpus's order; empty (after a message) when a name is unknown.
std::vector<const CorpusPipeline *> select(const std::string &only, const char *program) {
    std::vector<const CorpusPipeline *> chosen;
    for (size_t begin = 0; !only.empty() && begin <= only.size();) {
        const size_t end = std::min(only.find(',', begin), only.size());
        const std::string name = only.substr(begin, end - begin);
        const auto found = std::find_if(corpus().begin(), corpus().end(),
                                        [&](const CorpusPipeline &p) { return name == p.calls.name; });
        if (found == corpus().end()) {
            std::fprintf(stderr, "%s: no pipeline '%s'\n", program, name.c_str());
            usage(stderr, program);
            return {};
        }
        begin = end + 1;
    }
    for (const CorpusPipeline &p : corpus()) {
        if (only.empty() || ("," + only + ",").find(std::string(",") + p.calls.name + ",") != std::string::npos) {
            chosen.push_back(&p);
        }
    }
    return chosen;
}

std::string describe(const std::vector<Step> &steps) {
    if (steps.size() == 1) {
        return shape(steps[0]) + " (the estimates)";
    }
    auto [small, large] = std::minmax_element(steps.begin(), steps.end(),
                                              [](const Step &a, const Step &b) { return a.scale < b.scale; });
    char text[160];
    std::snprintf(text, sizeof text, "%zu sizes from %.2fx (%s) to %.2fx (%s) the estimates, seed %llu",
                  steps.size(), small->scale, shape(*small).c_str(), large->scale, shape(*large).c_str(),
                  static_cast<unsigned long long>(kSeed));
    return text;
}

}  // namespace

#ifdef HARENA_BENCH_ARENA_LAUNCH
constexpr const char *kLaunchPath = "the arena's launch path (harena_cuda_launch), every regime";
#else
constexpr const char *kLaunchPath = "Halide's runtime, every regime";
#endif

int main(int argc, char **argv) {
    Settings settings;
    std::string only;
    const std::string command = bench::command_text(argc, argv);
    if (std::optional<int> exit_code = bench::parse_options(
            argc, argv,
            {{"--seconds", [&](const char *v) { settings.seconds = std::atof(v); }},
             {"--only", [&](const char *v) { only = v; }}},
            usage)) {
        return *exit_code;
    }
    const std::vector<const CorpusPipeline *> pipelines = select(only, argv[0]);
    if (pipelines.empty()) {
        return 2;
    }
    // Before anything touches Halide's CUDA runtime: its default error
    // handler aborts when it finds no device.
    if (harena_cuda_device_count() == 0) {
        std::printf("no usable CUDA device\n");
        return 0;
    }
    // Failures come back as codes with their messages, printed before exiting.
    harena_corpus::ErrorLog::install();
    if (!bench::driver_init()) {
        return 1;
    }
    const std::string device = bench::device_description();
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf("harena-corpus-bench on %s, %s\ncommand: %s\nkernel launches: %s\n", device.c_str(), date,
                command.c_str(), kLaunchPath);

    const auto start = std::chrono::steady_clock::now();
    std::vector<WorkloadResult> results;
    const auto scales = [](bool varies) {
        return varies ? seeded_scales(kSequence, kSmallest, kLargest, kSeed) : std::vector<double>{1.0};
    };
    try {
        for (const CorpusPipeline *p : pipelines) {
            for (const bool varies : {false, true}) {
                std::vector<Step> steps = make_steps(p->calls, scales(varies));
                results.push_back(measure(*p, steps, varies, settings));
                results.back().sizes = describe(steps);
                results.back().planned = p->plan.planned_device;
                print_workload(results.back());
            }
        }
        // The GPU's own time, once every workload is timed: CUPTI's
        // recording slows every launch while it is on.
        std::string why_not;
        if (auto clock = harena_bench::KernelBusyClock::start(why_not)) {
            std::printf("\nKernel-busy pass: %d rounds of every regime per workload, CUPTI recording kernels\n",
                        settings.busy_rounds);
            size_t w = 0;
            for (const CorpusPipeline *p : pipelines) {
                for (const bool varies : {false, true}) {
                    std::vector<Step> steps = make_steps(p->calls, scales(varies));
                    measure_busy(*p, steps, *clock, settings, results[w]);
                    print_busy(results[w++]);
                }
            }
        } else {
            std::printf("\nno kernel-busy pass: %s\n", why_not.c_str());
        }
    } catch (const harena::Error &e) {
        std::fprintf(stderr, "harena-corpus-bench: %s (code %d)\n", e.what(), e.code());
        return 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n%s, %zu workloads in %.0f s\n", device.c_str(), results.size(), seconds);
    print_summary(results);
    print_distance_from_busy(results);
    print_plans(pipelines);
    print_targets(results);
    return 0;
}
