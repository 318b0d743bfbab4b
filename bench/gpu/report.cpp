#include "report.h"

#include "graph_stats_text.h"

#include "report_common.h"

#include <cstdio>
#include <set>
#include <string>

namespace bench {
namespace {

using namespace report;

// (slowest - fastest) / fastest of the repeats' medians, in percent.
double spread(const WorkloadResult &r, size_t regime) {
    double low = r.repeats[0][regime].median_us, high = low;
    for (const auto &repeat : r.repeats) {
        low = std::min(low, repeat[regime].median_us);
        high = std::max(high, repeat[regime].median_us);
    }
    return 100.0 * (high - low) / low;
}

enum class Column { median_us,
                    to_ideal,
                    to_plan,
                    to_busy };

std::string joined(const WorkloadResult &r, size_t regime, Column column) {
    std::string s;
    char cell[32];
    for (size_t i = 0; i < r.repeats.size(); i++) {
        const Measurement &m = r.repeats[i][regime];
        if (column == Column::median_us) {
            std::snprintf(cell, sizeof(cell), "%.1f", m.median_us);
        } else if (column == Column::to_busy) {
            const double busy = r.busy.regimes.empty() ? 0 : r.busy.regimes[regime].busy_us;
            std::snprintf(cell, sizeof(cell), busy > 0 ? "%.2f" : "-", m.median_us / busy);
        } else {
            std::snprintf(cell, sizeof(cell), "%.3f", column == Column::to_ideal ? m.ratio_to_ideal : m.ratio_to_plan);
        }
        s += (i ? " / " : "") + std::string(cell);
    }
    return s;
}

}  // namespace

void print_table(const std::vector<WorkloadResult> &results) {
    const size_t n = results.empty() ? 0 : results.front().repeats.size();
    std::printf("\nPer run, median over rounds; x ideal, x plan: median over rounds of the time divided by the\n"
                "ideal's (the arena plan's) in the same round. Repeats side by side (r1 / r2 ...). Counts and memory:\n"
                "the largest over repeats. replays/run: graph launches per timed run (the arena graph regime).\n"
                "held: device memory the allocator or arena held at its peak; high-water: of it, handed out at the\n"
                "peak (arenas and the pool report it; Halide's cache cannot tell). output: same = bit-identical to\n"
                "the plain pipeline on every step, close = within a relative 1e-5 (see measure.h). busy us: per run,\n"
                "the time at least one kernel ran (CUPTI's kernel records, the kernel-busy pass after every repeat);\n"
                "x busy: the run's median over it, 1.00 being the floor no allocator or launch path can go below.\n\n");
    std::printf("%-11s %-26s %-16s %-*s %7s %-*s %-*s %8s %-*s %10s %9s %11s %9s %10s %7s\n", "app", "size", "regime",
                int(9 * n + 3), "median us", "spread", int(8 * n + 3), "x ideal", int(8 * n + 3), "x plan", "busy us",
                int(7 * n + 3), "x busy", "allocs/run", "frees/run", "replays/run", "held MiB", "high-water",
                "output");
    for (const WorkloadResult &r : results) {
        for (size_t g = 0; g < r.repeats[0].size(); g++) {
            const double allocs = largest(r, g, [](const Measurement &m) { return m.allocations_per_run; });
            const double frees = largest(r, g, [](const Measurement &m) { return m.frees_per_run; });
            const double replays = largest(r, g, [](const Measurement &m) { return m.replays_per_run; });
            const double held = largest(r, g, [](const Measurement &m) { return m.memory.held; });
            const double high = largest(r, g, [](const Measurement &m) { return m.memory.high_water; });
            char high_text[32] = "-";
            if (high > 0) {
                std::snprintf(high_text, sizeof(high_text), "%.2f", mib(high));
            }
            const double busy = r.busy.regimes.empty() ? 0 : r.busy.regimes[g].busy_us;
            std::printf("%-11s %-26s %-16s %-*s %6.1f%% %-*s %-*s %8.1f %-*s %10.2f %9.2f %11.2f %9.2f %10s %7s\n",
                        r.app.c_str(), r.size.c_str(), regime_name(r.repeats[0][g].regime), int(9 * n + 3),
                        joined(r, g, Column::median_us).c_str(), spread(r, g), int(8 * n + 3),
                        joined(r, g, Column::to_ideal).c_str(), int(8 * n + 3), joined(r, g, Column::to_plan).c_str(),
                        busy, int(7 * n + 3), joined(r, g, Column::to_busy).c_str(), allocs, frees, replays, mib(held),
                        high_text, output_check_name(output_check(r, g)));
        }
    }
    std::printf("\nArena plans (bytes): ");
    std::set<std::string> seen;
    for (const WorkloadResult &r : results) {
        if (seen.insert(r.app).second) {
            std::printf("%s %llu vs lower bound %llu (x%.6f)  ", r.app.c_str(), (unsigned long long)r.arena_bytes,
                        (unsigned long long)r.lower_bound, (double)r.arena_bytes / (double)r.lower_bound);
        }
    }
    std::printf("\n");
}

std::string graph_stats_line(const Measurement &m) {
    char text[64];
    std::snprintf(text, sizeof(text), "timed runs replayed %5.1f%%; ", 100.0 * m.replays_per_run);
    return text + graph_cache_counts(m.graph);
}

void print_graph_stats(const std::vector<WorkloadResult> &results) {
    std::printf("\nGraph cache of the arena graph regime (%u graphs, least recently used dropped first). Counts over\n"
                "the whole workload: warm-up and timed batches of every round and the output check. A first call\n"
                "with a key runs as an ordinary call (a miss), the second is captured, later ones replay; a\n"
                "sequence with more sizes than the cache holds misses on every call.\n",
                kGraphCapacity);
    for (const WorkloadResult &r : results) {
        const std::string sizes = std::to_string(r.distinct_sizes) + (r.distinct_sizes == 1 ? " size," : " sizes,");
        std::printf("  %-11s %-26s %-10s %s\n", r.app.c_str(), r.size.c_str(), sizes.c_str(),
                    r.capturable ? "capturable per its plan" : "NOT CAPTURABLE per its plan");
        for (size_t rep = 0; rep < r.repeats.size(); rep++) {
            std::printf("    r%zu: %s\n", rep + 1, graph_stats_line(r.repeats[rep][kGraph]).c_str());
        }
    }
}

}  // namespace bench
