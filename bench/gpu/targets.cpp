// The targets the benchmark checks, one line each: met or MISSED, with the
// worst value over repeats (every repeat must meet a target).
#include "report.h"

#include "report_common.h"

#include <cstdio>

namespace bench {
namespace {

using namespace report;

double worst(const WorkloadResult &r, size_t regime, double Measurement::*ratio) {
    double v = 0;
    for (const auto &repeat : r.repeats) {
        v = std::max(v, repeat[regime].*ratio);
    }
    return v;
}

void line(bool met, const std::string &name, const char *text) {
    std::printf("  %-7s %-40s %s\n", met ? "met" : "MISSED", name.c_str(), text);
}

// The arena plan against the ideal and the other allocation regimes, and
// its memory against the plan's lower bound and Halide's default.
void plan_targets(const WorkloadResult &r, const std::string &name) {
    char text[320];
    {
        // The ideal allocates nothing: the floor of every allocation regime.
        const double ratio = worst(r, kPlan, &Measurement::ratio_to_ideal);
        const double target = r.launch_bound && !r.varies ? 1.01 : 1.02;
        std::snprintf(text, sizeof(text), "arena plan %.3fx ideal (target <= %.2fx, %s)", ratio, target,
                      r.varies       ? "size varies" :
                      r.launch_bound ? "fixed size, launch-bound" :
                                       "fixed size");
        line(ratio <= target, name, text);
    }
    if (r.app == "chain4") {
        // The runtime's target: a 4-stage pipeline, unchanged, under the override.
        const double ratio = worst(r, kOverride, &Measurement::ratio_to_ideal);
        std::snprintf(text, sizeof(text), "arena override %.3fx ideal (target <= 1.02x, plain 4-stage pipeline)",
                      ratio);
        line(ratio <= 1.02, name, text);
    }
    // Among the ways to allocate, but the ideal (the floor above, which the
    // plan can only tie): the graph regime changes how kernels are launched
    // as well, and has targets of its own below.
    std::string faster;
    for (size_t g = 0; g < r.repeats[0].size(); g++) {
        if (g == kPlan || g == kGraph || g == kIdeal) {
            continue;
        }
        for (size_t rep = 0; rep < r.repeats.size(); rep++) {
            const double ratio = r.repeats[rep][kPlan].median_us / r.repeats[rep][g].median_us;
            if (ratio > 1.0) {
                std::snprintf(text, sizeof(text), " %s (r%zu, plan %.3fx it)", regime_name(r.repeats[0][g].regime),
                              rep + 1, ratio);
                faster += text;
            }
        }
    }
    line(faster.empty(), name,
         ("arena plan at least as fast as every other allocation regime but the ideal" +
          (faster.empty() ? "" : "; faster:" + faster))
             .c_str());
    const double plan_held = largest(r, kPlan, [](const Measurement &m) { return m.memory.held; });
    const double default_held = largest(r, kHalideDefault, [](const Measurement &m) { return m.memory.held; });
    const bool bound_ok = plan_held <= 1.01 * static_cast<double>(r.lower_bound);
    const bool below_default = plan_held < default_held;
    std::snprintf(text, sizeof(text),
                  "arena plan holds %.2f MiB: lower bound %.2f MiB + 1%% %s; halide default held %.2f MiB %s",
                  mib(plan_held), mib(static_cast<double>(r.lower_bound)), bound_ok ? "respected" : "EXCEEDED",
                  mib(default_held), below_default ? "(more)" : "(LESS)");
    line(bound_ok && below_default, name, text);
}

// The planned calls through the graph cache: far below the ideal where
// launches dominate, no slower than the plan where kernels do, faster than
// the plan where a few sizes repeat, and within the cache's bookkeeping of
// the plan where every call is new to it. The output must be the plain
// pipeline's, bit for bit, whatever the cache did.
void graph_targets(const WorkloadResult &r, const std::string &name) {
    const char *kind = nullptr;
    double ratio = 0, target = 0;
    const char *against = "plan";
    if (!r.varies && r.launch_bound) {
        kind = "fixed size, launch-bound";
        ratio = worst(r, kGraph, &Measurement::ratio_to_ideal);
        target = 0.5;
        against = "ideal";
    } else if (!r.varies) {
        kind = "fixed size, kernel-bound";
        ratio = worst(r, kGraph, &Measurement::ratio_to_plan);
        target = 1.01;
    } else if (r.distinct_sizes <= static_cast<int>(kGraphCapacity)) {
        kind = "a few sizes repeat: every one cached";
        ratio = worst(r, kGraph, &Measurement::ratio_to_plan);
        target = 0.8;
    } else {
        kind = "size differs on every call: never cached";
        ratio = worst(r, kGraph, &Measurement::ratio_to_plan);
        target = 1.02;
    }
    const OutputCheck output = output_check(r, kGraph);
    const double allocations = largest(r, kGraph, [](const Measurement &m) { return m.allocations_per_run; });
    char text[320];
    std::snprintf(text, sizeof(text), "arena graph %.3fx %s (target <= %.2fx, %s); output %s, %.2f allocs/run", ratio,
                  against, target, kind, output_check_name(output), allocations);
    line(ratio <= target && output == OutputCheck::identical && allocations == 0, name, text);
}

}  // namespace

void print_targets(const std::vector<WorkloadResult> &results) {
    std::printf("\nTargets (every repeat must meet them):\n");
    for (const WorkloadResult &r : results) {
        const std::string name = r.app + " " + r.size;
        plan_targets(r, name);
        graph_targets(r, name);
    }
}

}  // namespace bench
