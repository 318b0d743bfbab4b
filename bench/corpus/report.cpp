#include "report.h"

#include <cstdio>
#include <string>

namespace corpus_bench {
namespace {

double mib(uint64_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

// Where a plan cannot gain (Halide's cache already serves every
// allocation), it is held to no slower than the spread of equal work: the
// arena build of a pipeline that plans nothing makes the plain build's calls,
// and its median ran 0.986-1.001x the plain build's (mip_levels, yuv_planes,
// auto_unsharp, auto_harris; both releases, one H200, 4b66bd6).
constexpr double kNoise = 1.02;

const char *workload_name(const WorkloadResult &r) {
    return r.varies ? "varies" : "estimate";
}

std::string arena_text(const RegimeResult &r) {
    if (r.arena_capacity == 0) {
        return "-";
    }
    char text[96];
    std::snprintf(text, sizeof text, "%.2f / %.2f MiB", mib(r.arena_capacity), mib(r.arena_high_water));
    std::string s = text;
    if (r.arena_fallbacks != 0) {
        s += " (" + std::to_string(r.arena_fallbacks) + " FALLBACKS)";
    }
    return s;
}

bool outputs_same(const WorkloadResult &r) {
    for (int g = 0; g < kRegimeCount; g++) {
        if (!r.regimes[g].output_same) {
            return false;
        }
    }
    return true;
}

}  // namespace

void print_workload(const WorkloadResult &r) {
    std::printf("\n%s, %s: %s; %d calls per batch, %d rounds, %.1f s\n", r.pipeline.c_str(),
                r.varies ? "size varies every call" : "the estimate size every call", r.sizes.c_str(),
                r.calls_per_batch, r.rounds, r.seconds);
    std::printf("  %-15s %10s %23s %9s %12s %11s  %-28s %s\n", "regime", "us/call", "(fastest .. slowest)", "plan/it",
                "allocs/call", "frees/call", "arena capacity / high water", "output");
    for (int g = 0; g < kRegimeCount; g++) {
        const RegimeResult &m = r.regimes[g];
        char range[48];
        std::snprintf(range, sizeof range, "(%.1f .. %.1f)", m.fastest_us, m.slowest_us);
        std::printf("  %-15s %10.1f %23s %8.3fx %12.2f %11.2f  %-28s %s\n", regime_name(kRegimes[g]), m.us_per_call,
                    range, m.plan_ratio, m.allocations_per_call, m.frees_per_call, arena_text(m).c_str(),
                    m.output.c_str());
    }
    std::printf("  graph cache (a graph per size): %s\n", r.regimes[kGraph].graph_cache.c_str());
    std::printf("  override's graph cache:         %s\n", r.regimes[kOverrideGraph].graph_cache.c_str());
    std::fflush(stdout);
}

void print_summary(const std::vector<WorkloadResult> &results) {
    std::printf("\nus per call (median over rounds); plan/x: median over rounds of the plan's time / x's in the same "
                "round;\ngraph/default, ovgraph/default: of the graph regimes' time / Halide default's; ovgraph/graph: "
                "the override graph's time / the arena graph's (the quotient of their plan/it);\ncuMemAlloc per "
                "call under halide default / arena override / arena plan\n");
    std::printf("  %-19s %-9s %15s %15s %12s %12s %15s %13s %14s %14s %16s %14s %20s  %s\n", "pipeline", "workload",
                "halide default", "arena override", "arena plan", "arena graph", "override graph", "plan/default",
                "plan/override", "graph/default", "ovgraph/default", "ovgraph/graph", "cuMemAlloc per call", "outputs");
    for (const WorkloadResult &r : results) {
        char allocs[48];
        std::snprintf(allocs, sizeof allocs, "%.2f / %.2f / %.2f", r.regimes[kDefault].allocations_per_call,
                      r.regimes[kOverride].allocations_per_call, r.regimes[kPlan].allocations_per_call);
        const RegimeResult &graph = r.regimes[kGraph], &override_graph = r.regimes[kOverrideGraph];
        std::printf("  %-19s %-9s %15.1f %15.1f %12.1f %12.1f %15.1f %12.3fx %13.3fx %13.3fx %15.3fx %13.3fx %20s  %s\n",
                    r.pipeline.c_str(), workload_name(r), r.regimes[kDefault].us_per_call,
                    r.regimes[kOverride].us_per_call, r.regimes[kPlan].us_per_call, graph.us_per_call,
                    override_graph.us_per_call, r.regimes[kDefault].plan_ratio, r.regimes[kOverride].plan_ratio,
                    graph.default_ratio, override_graph.default_ratio, graph.plan_ratio / override_graph.plan_ratio,
                    allocs, outputs_same(r) ? "same" : "DIFFER");
    }
}

void print_plans(const std::vector<const CorpusPipeline *> &pipelines) {
    std::printf("\nPlans, as generated (<name>.arena.h): device intermediates planned of all; the plan's arena at the "
                "sizes it was made at and its ratio to the lower bound (peak of live planned bytes)\n");
    for (const CorpusPipeline *p : pipelines) {
        const PlanReport &plan = p->plan;
        const double ratio = plan.lower_bound != 0 ? static_cast<double>(plan.bytes) / plan.lower_bound : 0;
        std::printf("  %-19s %3d/%-3d device intermediates planned (%d buffers in the plan); %9.2f MiB %s, lower "
                    "bound %9.2f MiB: ratio %.4f\n",
                    p->calls.name, plan.planned_device, plan.device_intermediates, plan.planned_buffers,
                    mib(plan.bytes), plan.bounded ? "worst case  " : "at estimates", mib(plan.lower_bound), ratio);
    }
}

void print_busy(const WorkloadResult &r) {
    std::printf("  %-19s %-9s kernels busy us/call", r.pipeline.c_str(), workload_name(r));
    for (int g = 0; g < kRegimeCount; g++) {
        std::printf(" %s %.1f", regime_name(kRegimes[g]), r.regimes[g].busy_us);
    }
    std::printf("; kernels/call %.1f; call under CUPTI, halide default: %.1f us%s%s\n",
                r.regimes[kDefault].kernels_per_call, r.regimes[kDefault].traced_us,
                r.busy_problem.empty() ? "" : "; PROBLEM: ", r.busy_problem.c_str());
    std::fflush(stdout);
}

void print_distance_from_busy(const std::vector<WorkloadResult> &results) {
    if (results.empty() || results.front().regimes[kDefault].busy_us == 0) {
        return;
    }
    std::printf("\nDistance from the GPU's own time: busy = per call, the time at least one kernel ran (CUPTI's kernel "
                "records,\nmedian over the busy pass's rounds, Halide default's calls); each regime's us per call "
                "(timed rounds) over its\nown busy time, so 1.00x is the floor no allocator or launch path can go "
                "below\n");
    std::printf("  %-19s %-9s %10s %12s %15s %15s %11s %12s %15s\n", "pipeline", "workload", "busy us", "kernels/call",
                "halide default", "arena override", "arena plan", "arena graph", "override graph");
    for (const WorkloadResult &r : results) {
        std::printf("  %-19s %-9s %10.1f %12.1f", r.pipeline.c_str(), workload_name(r), r.regimes[kDefault].busy_us,
                    r.regimes[kDefault].kernels_per_call);
        const int widths[kRegimeCount] = {15, 15, 11, 12, 15};
        for (int g = 0; g < kRegimeCount; g++) {
            std::printf(" %*.3fx", widths[g] - 1, r.regimes[g].to_busy);
        }
        std::printf("%s\n", r.busy_problem.empty() ? "" : "  (busy pass: see its PROBLEM)");
    }
}

int print_targets(const std::vector<WorkloadResult> &results) {
    std::printf("\nTargets, on what an allocator can change (README.md#targets):\n");
    int missed = 0, count = 0;
    auto line = [&](bool met, const WorkloadResult &r, const std::string &text) {
        std::printf("  %-7s %-19s %-9s %s\n", met ? "met" : "MISSED", r.pipeline.c_str(), workload_name(r),
                    text.c_str());
        missed += met ? 0 : 1;
        count++;
    };
    char text[200];
    for (const WorkloadResult &r : results) {
        line(outputs_same(r), r, "the arena regimes' outputs bit-identical to halide default's, every size");
        if (r.planned == 0) {
            continue;  // nothing planned: the plan cannot change a call
        }
        const RegimeResult &plain = r.regimes[kDefault], &plan = r.regimes[kPlan];
        const double to_default = plain.plan_ratio, to_override = r.regimes[kOverride].plan_ratio;
        std::snprintf(text, sizeof text, "arena plan %.3fx halide default (target <= %.2fx)", to_default, kNoise);
        line(to_default <= kNoise, r, text);
        std::snprintf(text, sizeof text, "arena plan %.3fx arena override (target <= %.2fx)", to_override, kNoise);
        line(to_override <= kNoise, r, text);
        if (plain.allocations_per_call >= 1 && plain.busy_us > 0) {
            // Halide's cache misses: the plan removes those allocations.
            const double above_default = plain.us_per_call - plain.busy_us;
            const double above_plan = plan.us_per_call - plan.busy_us;
            const double kept = above_default > 0 ? above_plan / above_default : 0;
            std::snprintf(text, sizeof text,
                          "arena plan keeps %.2f of halide default's time above the kernels' (%.1f of %.1f us; %.2f "
                          "cuMemAlloc/call; target <= 0.50)",
                          kept, above_plan, above_default, plain.allocations_per_call);
            line(kept <= 0.5, r, text);
        }
    }
    std::printf("%d of %d targets met\n", count - missed, count);
    return missed;
}

}  // namespace corpus_bench
