#include "report.h"

#include <cstdio>
#include <string>

namespace corpus_bench {
namespace {

double mib(uint64_t bytes) {
    return static_cast<double>(bytes) / (1024.0 * 1024.0);
}

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

int print_targets(const std::vector<WorkloadResult> &results) {
    std::printf("\nTargets:\n");
    int missed = 0, count = 0;
    auto line = [&](bool met, const WorkloadResult &r, const std::string &text) {
        std::printf("  %-7s %-19s %-9s %s\n", met ? "met" : "MISSED", r.pipeline.c_str(), workload_name(r),
                    text.c_str());
        missed += met ? 0 : 1;
        count++;
    };
    char text[160];
    for (const WorkloadResult &r : results) {
        const double to_default = r.regimes[kDefault].plan_ratio;
        if (!r.varies) {
            const double to_override = r.regimes[kOverride].plan_ratio;
            std::snprintf(text, sizeof text, "arena plan %.3fx halide default (target <= 1.00x)", to_default);
            line(to_default <= 1.0, r, text);
            std::snprintf(text, sizeof text, "arena plan %.3fx arena override (target <= 1.00x)", to_override);
            line(to_override <= 1.0, r, text);
        } else {
            // The corpus has no zero-allocation build to compare with: the
            // target is a margin over Halide's default where sizes vary.
            std::snprintf(text, sizeof text, "arena plan %.3fx halide default (target <= 0.90x)", to_default);
            line(to_default <= 0.9, r, text);
        }
        line(outputs_same(r), r, "the arena regimes' outputs bit-identical to halide default's, every size");
    }
    std::printf("%d of %d targets met\n", count - missed, count);
    return missed;
}

}  // namespace corpus_bench
