#include "threads_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace bench {
namespace {

std::vector<std::string> workloads_of(const std::vector<ThreadRow> &rows) {
    std::vector<std::string> names;
    for (const ThreadRow &r : rows) {
        if (std::find(names.begin(), names.end(), r.workload) == names.end()) {
            names.push_back(r.workload);
        }
    }
    return names;
}

// The distinct values of one field of the rows, ascending.
std::vector<int> distinct(const std::vector<ThreadRow> &rows, int ThreadRow::*field) {
    std::vector<int> values;
    for (const ThreadRow &r : rows) {
        if (std::find(values.begin(), values.end(), r.*field) == values.end()) {
            values.push_back(r.*field);
        }
    }
    std::sort(values.begin(), values.end());
    return values;
}

std::vector<int> thread_counts(const std::vector<ThreadRow> &rows) {
    return distinct(rows, &ThreadRow::threads);
}

std::vector<int> device_counts(const std::vector<ThreadRow> &rows) {
    return distinct(rows, &ThreadRow::devices);
}

const ThreadRow *find(const std::vector<ThreadRow> &rows, const std::string &workload, const std::string &regime,
                      int threads, int devices) {
    for (const ThreadRow &r : rows) {
        if (r.workload == workload && thread_regime_name(r.regime) == regime && r.threads == threads &&
            r.devices == devices) {
            return &r;
        }
    }
    return nullptr;
}

std::string file_name(std::string workload) {
    for (char &c : workload) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        c = keep ? c : '-';
    }
    return workload;
}

std::string gpus_text(int devices) {
    return devices == 1 ? "" : ", " + std::to_string(devices) + " GPUs";
}

void write_chart(const std::vector<ThreadRow> &rows, const std::string &workload, int devices,
                 const std::string &path) {
    const std::vector<int> counts = thread_counts(rows);
    double top = 1;
    for (const ThreadRow &r : rows) {
        top = r.workload == workload && r.devices == devices ? std::max(top, r.calls_per_second) : top;
    }
    const double w = 640, h = 400, left = 70, bottom = 40, right = 200, up = 30;
    auto x_of = [&](size_t i) { return left + (w - left - right) * (counts.size() < 2 ? 0.5 : double(i) / double(counts.size() - 1)); };
    auto y_of = [&](double v) { return h - bottom - (h - bottom - up) * v / top; };
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        std::perror(path.c_str());
        return;
    }
    std::fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">\n", w, h);
    std::fprintf(f, "<text x=\"%.0f\" y=\"18\">%s%s: calls/s over all threads</text>\n", left, workload.c_str(),
                 gpus_text(devices).c_str());
    std::fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, h - bottom, w - right, h - bottom);
    std::fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"black\"/>\n", left, up, left, h - bottom);
    for (size_t i = 0; i < counts.size(); i++) {
        std::fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">T=%d%s</text>\n", x_of(i), h - bottom + 16,
                     counts[i], devices == 1 ? "" : "/GPU");
    }
    for (int k = 0; k <= 4; k++) {
        std::fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%.0f</text>\n", left - 4, y_of(top * k / 4) + 4, top * k / 4);
    }
    const char *colors[] = {"#444444", "#999999", "#1f77b4", "#2ca02c", "#d62728", "#9467bd"};
    int line = 0;
    for (const ThreadRegime &regime : kThreadRegimes) {
        const std::string name = thread_regime_name(regime);
        const char *color = colors[line % 6];
        std::string points;
        for (size_t i = 0; i < counts.size(); i++) {
            if (const ThreadRow *r = find(rows, workload, name, counts[i], devices)) {
                char xy[64];
                std::snprintf(xy, sizeof(xy), "%.1f,%.1f ", x_of(i), y_of(r->calls_per_second));
                points += xy;
            }
        }
        std::fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n", color, points.c_str());
        std::fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" fill=\"%s\">%s</text>\n", w - right + 10, up + 16.0 * line, color, name.c_str());
        line++;
    }
    std::fprintf(f, "</svg>\n");
    std::fclose(f);
}

}  // namespace

std::string thread_regime_name(const ThreadRegime &regime) {
    return std::string(regime_name(regime.regime)) + (regime.stream_per_thread ? ", stream per thread" : "");
}

void print_row(const ThreadRow &r) {
    std::printf("%-28s %-36s GPUs=%d T=%-2d %10.0f calls/s  p50 %8.1f us  p99 %8.1f us  balance %4.2f  %s\n",
                r.workload.c_str(), thread_regime_name(r.regime).c_str(), r.devices, r.threads, r.calls_per_second,
                r.p50_us, r.p99_us, r.balance, r.bit_identical ? "bit-identical" : "OUTPUT DIFFERS");
    std::fflush(stdout);
}

namespace {

// One table: for each workload, GPU count and regime, calls/s at each thread
// count and its ratio to the row `base` picks (nullptr: no ratio).
template<typename Base>
void print_ratios(const std::vector<ThreadRow> &rows, const char *title, const std::vector<int> &devices, Base base) {
    const std::vector<int> counts = thread_counts(rows);
    std::printf("\n%s\n%-28s %-44s", title, "workload", "regime");
    for (int t : counts) {
        std::printf(" %18s", ("T=" + std::to_string(t)).c_str());
    }
    std::printf("\n");
    for (const std::string &workload : workloads_of(rows)) {
        for (int d : devices) {
            for (const ThreadRegime &regime : kThreadRegimes) {
                const std::string name = thread_regime_name(regime);
                std::printf("%-28s %-44s", workload.c_str(), (name + gpus_text(d)).c_str());
                for (int t : counts) {
                    const ThreadRow *r = find(rows, workload, name, t, d);
                    const ThreadRow *b = r != nullptr ? base(*r) : nullptr;
                    if (r == nullptr || b == nullptr || b->calls_per_second <= 0) {
                        std::printf(" %18s", "-");
                        continue;
                    }
                    char cell[64];
                    std::snprintf(cell, sizeof(cell), "%.0f (%.2fx)", r->calls_per_second,
                                  r->calls_per_second / b->calls_per_second);
                    std::printf(" %18s", cell);
                }
                std::printf("\n");
            }
        }
    }
}

}  // namespace

void print_table(const std::vector<ThreadRow> &rows) {
    const std::string baseline = thread_regime_name(kThreadRegimes[0]);
    const std::vector<int> devices = device_counts(rows);
    print_ratios(rows, "calls/s over all threads (x Halide's default at the same T)", devices, [&](const ThreadRow &r) {
        return find(rows, r.workload, baseline, r.threads, r.devices);
    });
    std::vector<int> several(devices.begin(), devices.end());
    several.erase(std::remove(several.begin(), several.end(), 1), several.end());
    if (!several.empty()) {
        print_ratios(rows, "calls/s over all GPUs (x one GPU with the same threads per GPU)", several,
                     [&](const ThreadRow &r) { return find(rows, r.workload, thread_regime_name(r.regime), r.threads, 1); });
    }
}

void write_csv(const std::vector<ThreadRow> &rows, const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr) {
        std::perror(path.c_str());
        return;
    }
    std::fprintf(f, "workload,regime,devices,threads_per_device,calls_per_second,p50_us,p99_us,balance,bit_identical\n");
    for (const ThreadRow &r : rows) {
        std::fprintf(f, "%s,%s,%d,%d,%.1f,%.2f,%.2f,%.3f,%d\n", r.workload.c_str(), thread_regime_name(r.regime).c_str(),
                     r.devices, r.threads, r.calls_per_second, r.p50_us, r.p99_us, r.balance, r.bit_identical ? 1 : 0);
    }
    std::fclose(f);
}

void write_svg(const std::vector<ThreadRow> &rows, const std::string &dir) {
    for (const std::string &workload : workloads_of(rows)) {
        for (int d : device_counts(rows)) {
            const std::string suffix = d == 1 ? "" : "-" + std::to_string(d) + "gpus";
            write_chart(rows, workload, d, dir + "/threads-" + file_name(workload) + suffix + ".svg");
        }
    }
}

}  // namespace bench
