// The files the benchmark writes per app: a CSV of every measurement and an
// SVG chart of time and memory by regime.
#include "report.h"

#include "report_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bench {
namespace {

using namespace report;

// One per regime, in kRegimes order: reds for the driver-bound regimes,
// blues for the arenas (darkest the graph regime), grey for the ideal.
constexpr const char *kColors[] = {"#b2182b", "#ef8a62", "#fddbc7", "#92c5de", "#4393c3", "#053061", "#4d4d4d"};
static_assert(sizeof(kColors) / sizeof(kColors[0]) == kRegimeCount, "a color per regime");

double ratio_to_ideal(const std::vector<Measurement> &repeat, size_t regime) {
    return repeat[regime].ratio_to_ideal;
}

std::string xml_escape(const std::string &s) {
    std::string out;
    for (char c : s) {
        out += c == '<' ? "&lt;" : c == '>' ? "&gt;" :
                               c == '&'     ? "&amp;" :
                                              std::string(1, c);
    }
    return out;
}

void write_csv(const std::vector<const WorkloadResult *> &rows, const std::string &path) {
    std::ofstream out(path);
    // The graph_* columns are the graph regime's cache over the whole
    // workload (see print_graph_stats); zero on the other regimes' rows. The
    // kernel-busy columns are the workload's busy pass, 0 where it did not run.
    out << "repeat,app,size,varies,distinct_sizes,regime,median_us,fastest_round_us,slowest_round_us,rounds,"
           "ratio_to_ideal,ratio_to_plan,driver_allocs_per_run,driver_frees_per_run,graph_replays_per_run,held_bytes,"
           "high_water_bytes,output,plan_arena_bytes,plan_lower_bound,graph_calls,graph_captures,graph_replays,"
           "graph_misses,graph_evictions,graph_fallbacks,kernel_busy_us,kernels_per_run\n";
    for (const WorkloadResult *r : rows) {
        for (size_t rep = 0; rep < r->repeats.size(); rep++) {
            for (size_t g = 0; g < r->repeats[rep].size(); g++) {
                const Measurement &m = r->repeats[rep][g];
                const Busy busy = r->busy.regimes.empty() ? Busy{} : r->busy.regimes[g];
                uint64_t fallbacks = 0;
                for (uint64_t f : m.graph.fallbacks) {
                    fallbacks += f;
                }
                out << rep + 1 << "," << r->app << ",\"" << r->size << "\"," << (r->varies ? 1 : 0) << ","
                    << r->distinct_sizes << "," << regime_name(m.regime) << "," << m.median_us << "," << m.fastest_us
                    << "," << m.slowest_us << "," << m.rounds << "," << m.ratio_to_ideal << "," << m.ratio_to_plan
                    << "," << m.allocations_per_run << "," << m.frees_per_run << "," << m.replays_per_run << ","
                    << m.memory.held << "," << m.memory.high_water << "," << output_check_name(m.output) << ","
                    << r->arena_bytes << "," << r->lower_bound << "," << m.graph.calls << "," << m.graph.captures
                    << "," << m.graph.replays << "," << m.graph.misses << "," << m.graph.evictions << ","
                    << fallbacks << "," << busy.busy_us << "," << busy.kernels_per_run << "\n";
            }
        }
    }
}

// The chart's layout and scales: the ratio axis starts at 0.5x, or at the
// decade below the fastest ratio where graph replays go further below the
// ideal.
struct Chart {
    static constexpr double label_w = 130, ratio_x = 140, ratio_w = 420, mem_x = 700, mem_w = 200, bar_h = 14, gap = 3;
    static constexpr double bars = static_cast<double>(kRegimeCount);
    static constexpr double group_h = 22 + bars * (bar_h + gap) + 12;
    double low = 0.5, decades = 1, max_mem = 1;

    double ratio_pos(double ratio) const {
        return ratio_x + ratio_w * std::log10(std::max(ratio, low) / low) / decades;
    }
};

Chart chart_of(const std::vector<const WorkloadResult *> &rows) {
    double min_ratio = 0.5, max_ratio = 2;
    Chart chart;
    for (const WorkloadResult *r : rows) {
        for (const auto &repeat : r->repeats) {
            for (size_t g = 0; g < repeat.size(); g++) {
                if (ratio_to_ideal(repeat, g) > 0) {
                    min_ratio = std::min(min_ratio, ratio_to_ideal(repeat, g));
                }
                max_ratio = std::max(max_ratio, ratio_to_ideal(repeat, g));
                chart.max_mem = std::max(chart.max_mem, mib(static_cast<double>(repeat[g].memory.held)));
            }
        }
    }
    chart.low = min_ratio < 0.5 ? std::pow(10.0, std::floor(std::log10(min_ratio))) : 0.5;
    chart.decades = std::ceil(std::log10(max_ratio / chart.low));
    return chart;
}

// Regime g of one workload at height `by`: its ratio bar (repeat 1) with a
// tick per further repeat, and its memory bar.
void draw_regime(std::ostream &s, const Chart &c, const WorkloadResult &r, size_t g, double by) {
    const Measurement &m = r.repeats[0][g];
    const double ratio = ratio_to_ideal(r.repeats[0], g);
    const double mem = mib(static_cast<double>(m.memory.held));
    s << "<text x='" << c.label_w << "' y='" << by + 11 << "' text-anchor='end'>" << regime_name(m.regime)
      << "</text>\n";
    s << "<rect x='" << c.ratio_x << "' y='" << by << "' width='" << c.ratio_pos(ratio) - c.ratio_x << "' height='"
      << c.bar_h << "' fill='" << kColors[g] << "' stroke='#333' stroke-width='0.5'/>\n";
    for (size_t rep = 1; rep < r.repeats.size(); rep++) {
        const double x = c.ratio_pos(ratio_to_ideal(r.repeats[rep], g));
        s << "<line x1='" << x << "' y1='" << by - 1 << "' x2='" << x << "' y2='" << by + c.bar_h + 1
          << "' stroke='black' stroke-width='1.5'/>\n";
    }
    char text[64];
    std::snprintf(text, sizeof(text), "%.1f us (%.2fx)", m.median_us, ratio);
    s << "<text x='" << c.ratio_pos(ratio) + 4 << "' y='" << by + 11 << "'>" << text << "</text>\n";
    s << "<rect x='" << c.mem_x << "' y='" << by << "' width='" << c.mem_w * mem / c.max_mem << "' height='"
      << c.bar_h << "' fill='" << kColors[g] << "' stroke='#333' stroke-width='0.5'/>\n";
    std::snprintf(text, sizeof(text), "%.2f", mem);
    s << "<text x='" << c.mem_x + c.mem_w * mem / c.max_mem + 4 << "' y='" << by + 11 << "'>" << text
      << "</text>\n";
}

// One workload's group of bars, at height y.
void draw_workload(std::ostream &s, const Chart &c, const WorkloadResult &r, double y) {
    s << "<text x='10' y='" << y + 12 << "' font-weight='bold'>" << xml_escape(r.size) << "</text>\n";
    const double top = y + 20, bottom = top + c.bars * (c.bar_h + c.gap);
    s << "<line x1='" << c.ratio_pos(1) << "' y1='" << top - 2 << "' x2='" << c.ratio_pos(1) << "' y2='" << bottom
      << "' stroke='#888' stroke-dasharray='3,2'/>\n";
    for (size_t g = 0; g < r.repeats[0].size(); g++) {
        draw_regime(s, c, r, g, top + static_cast<double>(g) * (c.bar_h + c.gap));
    }
}

// Two panels per workload: time per run relative to ideal (log scale; a
// tick marks each further repeat) and device memory held.
void write_svg(const std::vector<const WorkloadResult *> &rows, const std::string &path, const std::string &device) {
    const Chart c = chart_of(rows);
    const double height = 70 + c.group_h * static_cast<double>(rows.size()) + 20;
    std::ostringstream s;
    s << "<svg xmlns='http://www.w3.org/2000/svg' width='960' height='" << height
      << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n";
    s << "<text x='10' y='18' font-size='14' font-weight='bold'>" << xml_escape(rows.front()->app)
      << ": time per run and device memory by regime</text>\n";
    s << "<text x='10' y='34'>" << xml_escape(device) << "; repeat 1 as bars, later repeats as ticks</text>\n";
    s << "<text x='" << c.ratio_x << "' y='56'>time per run / ideal (log scale)</text>\n";
    s << "<text x='" << c.mem_x << "' y='56'>device memory held (MiB)</text>\n";
    double y = 70;
    for (const WorkloadResult *r : rows) {
        draw_workload(s, c, *r, y);
        y += c.group_h;
    }
    for (int d = 0; d <= c.decades; d++) {
        const double value = c.low * std::pow(10.0, d);
        s << "<text x='" << c.ratio_pos(value) << "' y='" << y + 10 << "' text-anchor='middle' fill='#555'>" << value
          << "x</text>\n";
    }
    s << "</svg>\n";
    std::ofstream(path) << s.str();
}

}  // namespace

bool write_files(const std::vector<WorkloadResult> &results, const std::string &dir, const std::string &device) {
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (error) {
        std::fprintf(stderr, "harena-gpu-bench: cannot make %s for the CSV and SVG files: %s\n", dir.c_str(),
                     error.message().c_str());
        return false;
    }
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
        if (!std::ifstream(dir + "/" + app + ".svg")) {
            std::fprintf(stderr, "harena-gpu-bench: could not write %s/%s.csv and .svg\n", dir.c_str(), app.c_str());
            return false;
        }
    }
    return true;
}

}  // namespace bench
