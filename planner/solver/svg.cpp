#include "solver/svg.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace harena {

namespace {

constexpr double kWidth = 960, kHeight = 540;                       // plot area
constexpr double kLeft = 90, kRight = 20, kTop = 40, kBottom = 50;  // margins

std::string escape(const std::string &text) {
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string fixed(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

// Bytes in the largest unit that keeps the number at least 1.
std::string bytes(double b) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (b >= 1024 && u < 6) {
        b /= 1024;
        u++;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", b, units[u]);
    return buf;
}

std::string ratio(const Plan &plan) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", plan.ratio());
    return buf;
}

// The k-th of four equal steps from t0 to t1 (t0 <= t1), exact over the whole
// int64 range: the span is taken in uint64, where it always fits.
int64_t tick(int64_t t0, int64_t t1, int k) {
    const uint64_t span = uint64_t(t1) - uint64_t(t0);
    const uint64_t step = span / 4 * uint64_t(k) + span % 4 * uint64_t(k) / 4;
    return int64_t(uint64_t(t0) + step);
}

// Neighbouring buffers get clearly different hues (golden-angle steps).
std::string color(size_t index) {
    return "hsl(" + std::to_string((index * 137) % 360) + ",60%,65%)";
}

// The plot's scales: time [t0, t1] across, addresses [0, top] up.
struct Scale {
    int64_t t0 = 0, t1 = 1;
    double top = 1;

    double x(int64_t t) const {
        return kLeft + kWidth * (double(t) - double(t0)) / std::max(1.0, double(t1) - double(t0));
    }
    double y(double address) const {
        return kTop + kHeight * (1 - address / top);
    }
};

Scale scale_of(const Problem &problem, const Plan &plan) {
    Scale scale;
    if (!problem.buffers.empty()) {
        scale.t0 = problem.buffers[0].begin;
        scale.t1 = problem.buffers[0].end;
        for (const Buffer &b : problem.buffers) {
            scale.t0 = std::min(scale.t0, b.begin);
            scale.t1 = std::max(scale.t1, b.end);
        }
    }
    scale.top = double(std::max<uint64_t>({plan.arena_bytes, plan.lower_bound, 1}));
    return scale;
}

// One rectangle per buffer of nonzero size, with its details as a tooltip.
void draw_buffers(std::ostream &svg, const Scale &s, const Problem &problem, const Plan &plan) {
    for (size_t i = 0; i < problem.buffers.size(); i++) {
        const Buffer &b = problem.buffers[i];
        if (b.size == 0) continue;
        double offset = double(plan.offsets[i]);
        double y_top = s.y(offset + double(b.size)), y_bottom = s.y(offset);
        svg << "<rect x=\"" << fixed(s.x(b.begin)) << "\" y=\"" << fixed(y_top) << "\" width=\""
            << fixed(s.x(b.end) - s.x(b.begin)) << "\" height=\"" << fixed(std::max(0.5, y_bottom - y_top))
            << "\" fill=\"" << color(i) << "\" stroke=\"#333\" stroke-width=\"0.3\"><title>" << escape(b.id) << ": "
            << b.size << " bytes at offset " << plan.offsets[i] << ", live [" << b.begin << ", " << b.end
            << ")</title></rect>\n";
    }
}

// Axes with a few ticks and their labels.
void draw_axes(std::ostream &svg, const Scale &s) {
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << s.y(0) << "\" x2=\"" << kLeft + kWidth << "\" y2=\"" << s.y(0)
        << "\" stroke=\"black\"/>\n";
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << kTop << "\" x2=\"" << kLeft << "\" y2=\"" << s.y(0)
        << "\" stroke=\"black\"/>\n";
    for (int k = 0; k <= 4; k++) {
        const int64_t t = tick(s.t0, s.t1, k);
        svg << "<text x=\"" << fixed(s.x(t)) << "\" y=\"" << s.y(0) + 16 << "\" text-anchor=\"middle\">" << t
            << "</text>\n";
        svg << "<text x=\"" << kLeft - 6 << "\" y=\"" << fixed(s.y(s.top * k / 4) + 4) << "\" text-anchor=\"end\">"
            << bytes(s.top * k / 4) << "</text>\n";
    }
    svg << "<text x=\"" << kLeft + kWidth / 2 << "\" y=\"" << kTop + kHeight + 40
        << "\" text-anchor=\"middle\">time (step)</text>\n";
    svg << "<text transform=\"translate(16," << kTop + kHeight / 2
        << ") rotate(-90)\" text-anchor=\"middle\">address (bytes from the arena base)</text>\n";
}

// A reference line across the plot at `bytes_at`, labelled at the left or
// the right end.
void draw_level(std::ostream &svg, const Scale &s, uint64_t bytes_at, const char *style, const std::string &label,
                bool left) {
    double at = s.y(double(bytes_at));
    svg << "<line x1=\"" << kLeft << "\" y1=\"" << fixed(at) << "\" x2=\"" << kLeft + kWidth << "\" y2=\""
        << fixed(at) << "\" stroke=\"black\" " << style << "/>\n";
    svg << "<text x=\"" << (left ? kLeft + 4 : kLeft + kWidth - 4) << "\" y=\"" << fixed(at - 4)
        << "\" text-anchor=\"" << (left ? "start" : "end") << "\">" << label << "</text>\n";
}

}  // namespace

std::string plan_svg(const Problem &problem, const Plan &plan, const std::string &title) {
    if (plan.offsets.size() != problem.buffers.size()) {
        throw std::invalid_argument("plan_svg: the plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                                    std::to_string(problem.buffers.size()) + " buffers");
    }
    const Scale scale = scale_of(problem, plan);
    std::ostringstream svg;
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kWidth + kRight << "\" height=\""
        << kTop + kHeight + kBottom << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
    svg << "<title>" << escape(title) << "</title>\n";
    svg << "<text x=\"" << kLeft << "\" y=\"24\" font-size=\"15\">" << escape(title) << " (arena "
        << bytes(double(plan.arena_bytes)) << ", lower bound " << bytes(double(plan.lower_bound)) << ", ratio "
        << ratio(plan) << ")</text>\n";
    draw_buffers(svg, scale, problem, plan);
    draw_axes(svg, scale);
    // The two reference lines on top, labelled at opposite ends since they
    // are often close.
    draw_level(svg, scale, plan.lower_bound, "stroke-dasharray=\"6 4\"", "lower bound " + bytes(double(plan.lower_bound)),
               true);
    draw_level(svg, scale, plan.arena_bytes, "stroke-width=\"1.5\"", "arena " + bytes(double(plan.arena_bytes)), false);
    svg << "</svg>\n";
    return svg.str();
}

}  // namespace harena
