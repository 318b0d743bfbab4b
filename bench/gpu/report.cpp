#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace bench {
namespace {

constexpr size_t kPlan = 4;
constexpr size_t kHalideDefault = 1;
constexpr size_t kOverride = 3;
static_assert(kRegimes[kPlan] == Regime::arena_plan && kRegimes[kHalideDefault] == Regime::halide_default &&
                  kRegimes[kOverride] == Regime::arena_override,
              "report indices follow kRegimes");
constexpr const char *kColors[] = {"#b2182b", "#ef8a62", "#fddbc7", "#92c5de", "#2166ac", "#4d4d4d"};

double ratio_to_ideal(const std::vector<Measurement> &repeat, size_t regime) {
    return repeat[regime].ratio_to_ideal;
}

// (slowest - fastest) / fastest of the repeats' medians, in percent.
double spread(const WorkloadResult &r, size_t regime) {
    double low = r.repeats[0][regime].median_us, high = low;
    for (const auto &repeat : r.repeats) {
        low = std::min(low, repeat[regime].median_us);
        high = std::max(high, repeat[regime].median_us);
    }
    return 100.0 * (high - low) / low;
}

// The largest value over repeats: counts and memory are the same in every
// repeat unless something nondeterministic happened, which this would show.
template<typename F>
double largest(const WorkloadResult &r, size_t regime, F value) {
    double v = 0;
    for (const auto &repeat : r.repeats) {
        v = std::max(v, static_cast<double>(value(repeat[regime])));
    }
    return v;
}

std::string joined(const WorkloadResult &r, size_t regime, bool ratio) {
    std::string s;
    char cell[32];
    for (size_t i = 0; i < r.repeats.size(); i++) {
        std::snprintf(cell, sizeof(cell), ratio ? "%.3f" : "%.1f",
                      ratio ? ratio_to_ideal(r.repeats[i], regime) : r.repeats[i][regime].median_us);
        s += (i ? " / " : "") + std::string(cell);
    }
    return s;
}

double mib(double bytes) {
    return bytes / (1024.0 * 1024.0);
}

// The worst check over repeats.
OutputCheck output_check(const WorkloadResult &r, size_t regime) {
    OutputCheck worst = OutputCheck::identical;
    for (const auto &repeat : r.repeats) {
        worst = std::max(worst, repeat[regime].output);
    }
    return worst;
}

std::string xml_escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
    }
    return out;
}

void write_csv(const std::vector<const WorkloadResult *> &rows, const std::string &path) {
    std::ofstream out(path);
    out << "repeat,app,size,varies,regime,median_us,fastest_round_us,slowest_round_us,rounds,ratio_to_ideal,"
           "driver_allocs_per_run,driver_frees_per_run,held_bytes,high_water_bytes,output,"
           "plan_arena_bytes,plan_lower_bound\n";
    for (const WorkloadResult *r : rows) {
        for (size_t rep = 0; rep < r->repeats.size(); rep++) {
            for (size_t g = 0; g < r->repeats[rep].size(); g++) {
                const Measurement &m = r->repeats[rep][g];
                out << rep + 1 << "," << r->app << ",\"" << r->size << "\"," << (r->varies ? 1 : 0) << ","
                    << regime_name(m.regime) << "," << m.median_us << "," << m.fastest_us << "," << m.slowest_us
                    << "," << m.rounds << "," << ratio_to_ideal(r->repeats[rep], g) << "," << m.allocations_per_run
                    << "," << m.frees_per_run << "," << m.memory.held << "," << m.memory.high_water << ","
                    << output_check_name(m.output) << "," << r->arena_bytes << "," << r->lower_bound << "\n";
            }
        }
    }
}

// Two panels per workload: time per run relative to ideal (log scale; a
// tick marks each further repeat) and device memory held.
void write_svg(const std::vector<const WorkloadResult *> &rows, const std::string &path, const std::string &device) {
    const double label_w = 130, ratio_x = 140, ratio_w = 420, mem_x = 700, mem_w = 200, bar_h = 14, gap = 3;
    const double group_h = 22 + 6 * (bar_h + gap) + 12;
    double max_ratio = 2, max_mem = 1;
    for (const WorkloadResult *r : rows) {
        for (const auto &repeat : r->repeats) {
            for (size_t g = 0; g < repeat.size(); g++) {
                max_ratio = std::max(max_ratio, ratio_to_ideal(repeat, g));
                max_mem = std::max(max_mem, mib(static_cast<double>(repeat[g].memory.held)));
            }
        }
    }
    const double decades = std::ceil(std::log10(max_ratio / 0.5));
    auto ratio_pos = [&](double ratio) {
        return ratio_x + ratio_w * std::log10(std::max(ratio, 0.5) / 0.5) / decades;
    };
    const double height = 70 + group_h * static_cast<double>(rows.size()) + 20;
    std::ostringstream s;
    s << "<svg xmlns='http://www.w3.org/2000/svg' width='960' height='" << height
      << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n";
    s << "<text x='10' y='18' font-size='14' font-weight='bold'>" << xml_escape(rows.front()->app)
      << ": time per run and device memory by allocation regime</text>\n";
    s << "<text x='10' y='34'>" << xml_escape(device) << "; repeat 1 as bars, later repeats as ticks</text>\n";
    s << "<text x='" << ratio_x << "' y='56'>time per run / ideal (log scale)</text>\n";
    s << "<text x='" << mem_x << "' y='56'>device memory held (MiB)</text>\n";
    double y = 70;
    for (const WorkloadResult *r : rows) {
        s << "<text x='10' y='" << y + 12 << "' font-weight='bold'>" << xml_escape(r->size) << "</text>\n";
        const double top = y + 20, bottom = top + 6 * (bar_h + gap);
        s << "<line x1='" << ratio_pos(1) << "' y1='" << top - 2 << "' x2='" << ratio_pos(1) << "' y2='" << bottom
          << "' stroke='#888' stroke-dasharray='3,2'/>\n";
        for (size_t g = 0; g < r->repeats[0].size(); g++) {
            const double by = top + static_cast<double>(g) * (bar_h + gap);
            const Measurement &m = r->repeats[0][g];
            const double ratio = ratio_to_ideal(r->repeats[0], g);
            const double mem = mib(static_cast<double>(m.memory.held));
            s << "<text x='" << label_w << "' y='" << by + 11 << "' text-anchor='end'>" << regime_name(m.regime)
              << "</text>\n";
            s << "<rect x='" << ratio_x << "' y='" << by << "' width='" << ratio_pos(ratio) - ratio_x
              << "' height='" << bar_h << "' fill='" << kColors[g] << "' stroke='#333' stroke-width='0.5'/>\n";
            for (size_t rep = 1; rep < r->repeats.size(); rep++) {
                const double x = ratio_pos(ratio_to_ideal(r->repeats[rep], g));
                s << "<line x1='" << x << "' y1='" << by - 1 << "' x2='" << x << "' y2='" << by + bar_h + 1
                  << "' stroke='black' stroke-width='1.5'/>\n";
            }
            char text[64];
            std::snprintf(text, sizeof(text), "%.1f us (%.2fx)", m.median_us, ratio);
            s << "<text x='" << ratio_pos(ratio) + 4 << "' y='" << by + 11 << "'>" << text << "</text>\n";
            s << "<rect x='" << mem_x << "' y='" << by << "' width='" << mem_w * mem / max_mem << "' height='"
              << bar_h << "' fill='" << kColors[g] << "' stroke='#333' stroke-width='0.5'/>\n";
            std::snprintf(text, sizeof(text), "%.2f", mem);
            s << "<text x='" << mem_x + mem_w * mem / max_mem + 4 << "' y='" << by + 11 << "'>" << text
              << "</text>\n";
        }
        y += group_h;
    }
    for (int d = 0; d <= decades; d++) {
        const double value = 0.5 * std::pow(10.0, d);
        s << "<text x='" << ratio_pos(value) << "' y='" << y + 10 << "' text-anchor='middle' fill='#555'>" << value
          << "x</text>\n";
    }
    s << "</svg>\n";
    std::ofstream(path) << s.str();
}

}  // namespace

void print_table(const std::vector<WorkloadResult> &results) {
    const size_t n = results.empty() ? 0 : results.front().repeats.size();
    std::printf("\nPer run, median over rounds; x ideal: median over rounds of the time divided by the ideal's in\n"
                "the same round. Repeats side by side (r1 / r2 ...). Counts and memory: the largest over repeats.\n"
                "held: device memory the allocator or arena held at its peak; high-water: of it, handed out at the\n"
                "peak (arenas and the pool report it; Halide's cache cannot tell). output: same = bit-identical to\n"
                "the plain pipeline on every step, close = within a relative 1e-5 (see measure.h).\n\n");
    std::printf("%-11s %-26s %-16s %-*s %7s %-*s %9s %9s %9s %10s %7s\n", "app", "size", "regime", int(9 * n + 3),
                "median us", "spread", int(8 * n + 3), "x ideal", "allocs/run", "frees/run", "held MiB",
                "high-water", "output");
    for (const WorkloadResult &r : results) {
        for (size_t g = 0; g < r.repeats[0].size(); g++) {
            const double allocs = largest(r, g, [](const Measurement &m) { return m.allocations_per_run; });
            const double frees = largest(r, g, [](const Measurement &m) { return m.frees_per_run; });
            const double held = largest(r, g, [](const Measurement &m) { return m.memory.held; });
            const double high = largest(r, g, [](const Measurement &m) { return m.memory.high_water; });
            char high_text[32] = "-";
            if (high > 0) {
                std::snprintf(high_text, sizeof(high_text), "%.2f", mib(high));
            }
            std::printf("%-11s %-26s %-16s %-*s %6.1f%% %-*s %9.2f %9.2f %9.2f %10s %7s\n", r.app.c_str(),
                        r.size.c_str(), regime_name(r.repeats[0][g].regime), int(9 * n + 3), joined(r, g, false).c_str(),
                        spread(r, g), int(8 * n + 3), joined(r, g, true).c_str(), allocs, frees, mib(held), high_text,
                        output_check_name(output_check(r, g)));
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

void print_targets(const std::vector<WorkloadResult> &results) {
    std::printf("\nTargets (every repeat must meet them):\n");
    for (const WorkloadResult &r : results) {
        const std::string name = r.app + " " + r.size;
        double worst_ratio = 0;
        for (const auto &repeat : r.repeats) {
            worst_ratio = std::max(worst_ratio, ratio_to_ideal(repeat, kPlan));
        }
        if (r.varies || r.launch_bound) {
            const double target = r.varies ? 1.02 : 1.01;
            std::printf("  %-7s %-40s arena plan %.3fx ideal (target <= %.2fx, %s)\n",
                        worst_ratio <= target ? "met" : "MISSED", name.c_str(), worst_ratio, target,
                        r.varies ? "size varies" : "fixed size, launch-bound");
        }
        if (r.app == "chain4") {
            // The runtime's target: a 4-stage pipeline, unchanged, under the override.
            double worst_override = 0;
            for (const auto &repeat : r.repeats) {
                worst_override = std::max(worst_override, ratio_to_ideal(repeat, kOverride));
            }
            std::printf("  %-7s %-40s arena override %.3fx ideal (target <= 1.02x, plain 4-stage pipeline)\n",
                        worst_override <= 1.02 ? "met" : "MISSED", name.c_str(), worst_override);
        }
        std::string faster;
        for (size_t g = 0; g < r.repeats[0].size(); g++) {
            if (g == kPlan) {
                continue;
            }
            for (size_t rep = 0; rep < r.repeats.size(); rep++) {
                const double ratio = r.repeats[rep][kPlan].median_us / r.repeats[rep][g].median_us;
                if (ratio > 1.0) {
                    char text[96];
                    std::snprintf(text, sizeof(text), " %s (r%zu, plan %.3fx it)", regime_name(r.repeats[0][g].regime),
                                  rep + 1, ratio);
                    faster += text;
                }
            }
        }
        std::printf("  %-7s %-40s arena plan at least as fast as every other regime%s%s\n",
                    faster.empty() ? "met" : "MISSED", name.c_str(), faster.empty() ? "" : "; faster:", faster.c_str());
        const double plan_held = largest(r, kPlan, [](const Measurement &m) { return m.memory.held; });
        const double default_held = largest(r, kHalideDefault, [](const Measurement &m) { return m.memory.held; });
        const bool bound_ok = plan_held <= 1.01 * static_cast<double>(r.lower_bound);
        const bool below_default = plan_held < default_held;
        std::printf("  %-7s %-40s arena plan holds %.2f MiB: lower bound %.2f MiB + 1%% %s; halide default held %.2f "
                    "MiB %s\n",
                    bound_ok && below_default ? "met" : "MISSED", name.c_str(), mib(plan_held),
                    mib(static_cast<double>(r.lower_bound)), bound_ok ? "respected" : "EXCEEDED", mib(default_held),
                    below_default ? "(more)" : "(LESS)");
    }
}

void write_files(const std::vector<WorkloadResult> &results, const std::string &dir, const std::string &device) {
    std::vector<std::string> apps;
    for (const WorkloadResult &r : results) {
        if (std::find(apps.begin(), apps.end(), r.app) == apps.end()) {
            apps.push_back(r.app);
        }
    }
    for (const std::string &app : apps) {
        std::vector<const WorkloadResult *> rows;
        for (const WorkloadResult &r : results) {
            if (r.app == app) {
                rows.push_back(&r);
            }
        }
        write_csv(rows, dir + "/" + app + ".csv");
        write_svg(rows, dir + "/" + app + ".svg", device);
    }
}

}  // namespace bench
