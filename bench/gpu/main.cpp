// harena-gpu-bench: every app pipeline, at two or more sizes (and with the
// size changing from run to run for variable_k and pyramid), timed under
// seven regimes in one process, the whole suite repeated. Prints the table
// last; writes <out>/<app>.csv and <out>/<app>.svg. See README.md.
//   harena-gpu-bench [--repeats N] [--out DIR] [--seconds S] [--only APP[,APP...]]
#include "command_line.h"
#include "driver.h"
#include "measure.h"
#include "report.h"
#include "report_common.h"
#include "workloads.h"

#include "harena/cuda.h"
#include "harena/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

using namespace bench;

namespace {

void usage(std::FILE *to, const char *program) {
    std::fprintf(to,
                 "usage: %s [--repeats N] [--out DIR] [--seconds S-per-workload] [--only APP[,APP...]]\n"
                 "  --repeats N   times the whole suite is measured (default 2)\n"
                 "  --out DIR     where <app>.csv and <app>.svg go (default .)\n"
                 "  --seconds S   time per workload and repeat (default 4; at least 9 rounds whatever it is)\n"
                 "  --only APPS   only these apps' workloads, comma-separated (variable_k, pyramid, small_chain,\n"
                 "                chain4)\n",
                 program);
}

bool selected(const std::string &only, const std::string &app) {
    return only.empty() || ("," + only + ",").find("," + app + ",") != std::string::npos;
}

// The apps of `specs` in order of first appearance.
std::vector<std::string> apps_of(const std::vector<WorkloadSpec> &specs) {
    std::vector<std::string> apps;
    for (const WorkloadSpec &s : specs) {
        if (std::find(apps.begin(), apps.end(), s.app) == apps.end()) {
            apps.push_back(s.app);
        }
    }
    return apps;
}

// Whether every app named in --only exists; names the first that does not.
bool check_only(const std::string &only, const std::vector<WorkloadSpec> &specs, const char *program) {
    const std::vector<std::string> apps = apps_of(specs);
    for (size_t begin = 0; !only.empty() && begin <= only.size();) {
        const size_t end = std::min(only.find(',', begin), only.size());
        const std::string app = only.substr(begin, end - begin);
        if (std::find(apps.begin(), apps.end(), app) == apps.end()) {
            std::fprintf(stderr, "%s: no app '%s'; the apps are", program, app.c_str());
            for (const std::string &a : apps) {
                std::fprintf(stderr, " %s", a.c_str());
            }
            std::fprintf(stderr, "\n");
            return false;
        }
        begin = end + 1;
    }
    return true;
}

// Prints the device, the date and the command.
void print_header(const std::string &device, const std::string &command) {
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf("harena-gpu-bench on %s, %s\ncommand: %s\n", device.c_str(), date, command.c_str());
}

// Prints the last repeat's measurements of `r`.
void print_repeat(int rep, const WorkloadResult &r) {
    for (const Measurement &m : r.repeats.back()) {
        std::printf("[repeat %d] %-11s %-26s %-16s %9.1f us/run %7.3fx ideal %6.2f allocs/run %8.2f MiB held"
                    "  output %s\n",
                    rep + 1, r.app.c_str(), r.size.c_str(), regime_name(m.regime), m.median_us, m.ratio_to_ideal,
                    m.allocations_per_run, static_cast<double>(m.memory.held) / (1024.0 * 1024.0),
                    output_check_name(m.output));
        if (m.regime == Regime::arena_graph) {
            std::printf("[repeat %d] %-11s %-26s graph cache: %s\n", rep + 1, r.app.c_str(), r.size.c_str(),
                        graph_stats_line(m).c_str());
        }
    }
    std::fflush(stdout);
}

// Measures every workload `repeats` times, printing each repeat as it ends.
std::vector<WorkloadResult> measure_all(const std::vector<WorkloadSpec> &specs, const Settings &settings,
                                        int repeats) {
    std::vector<WorkloadResult> results(specs.size());
    // One untimed round of everything first: the driver compiles every
    // kernel and the GPU leaves its idle clocks before the first repeat.
    Settings warm_up = settings;
    warm_up.min_rounds = warm_up.max_rounds = 1;
    for (const WorkloadSpec &spec : specs) {
        (void)measure(*spec.make(), warm_up);
    }
    for (int rep = 0; rep < repeats; rep++) {
        for (size_t s = 0; s < specs.size(); s++) {
            std::unique_ptr<Workload> workload = specs[s].make();
            WorkloadResult &r = results[s];
            r.app = specs[s].app;
            r.size = specs[s].size;
            r.varies = workload->varies;
            r.distinct_sizes = workload->distinct_sizes;
            r.launch_bound = specs[s].launch_bound;
            r.capturable = workload->app->capturable;
            r.arena_bytes = workload->app->arena_bytes;
            r.lower_bound = workload->app->lower_bound;
            r.repeats.push_back(measure(*workload, settings));
            print_repeat(rep, r);
        }
    }
    return results;
}

// The GPU's own time of every workload, after every repeat is timed:
// CUPTI's recording slows every launch while it is on.
void measure_busy_all(const std::vector<WorkloadSpec> &specs, const Settings &settings,
                      std::vector<WorkloadResult> &results) {
    std::string why_not;
    const std::unique_ptr<harena_bench::KernelBusyClock> clock = harena_bench::KernelBusyClock::start(why_not);
    if (!clock) {
        std::printf("\nno kernel-busy pass: %s\n", why_not.c_str());
        return;
    }
    std::printf("\nKernel-busy pass: %d rounds of every regime per workload, CUPTI recording kernels\n",
                settings.busy_rounds);
    for (size_t s = 0; s < specs.size(); s++) {
        std::unique_ptr<Workload> workload = specs[s].make();
        results[s].busy = measure_busy(*workload, settings, *clock);
        std::printf("  %-11s %-26s kernels busy %.1f us/run, %.1f kernels/run (halide default)%s%s\n",
                    results[s].app.c_str(), results[s].size.c_str(), results[s].busy.regimes[report::kHalideDefault].busy_us,
                    results[s].busy.regimes[report::kHalideDefault].kernels_per_run, results[s].busy.problem.empty() ? "" : "; PROBLEM: ",
                    results[s].busy.problem.c_str());
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char **argv) {
    int repeats = 2;
    std::string out = ".";
    std::string only;
    Settings settings;
    const std::string command = command_text(argc, argv);
    if (std::optional<int> exit_code = parse_options(
            argc, argv,
            {{"--repeats", [&](const char *v) { repeats = std::atoi(v); }},
             {"--out", [&](const char *v) { out = v; }},
             {"--seconds", [&](const char *v) { settings.seconds_per_workload = std::atof(v); }},
             {"--only", [&](const char *v) { only = v; }}},
            usage)) {
        return *exit_code;
    }
    std::vector<WorkloadSpec> specs = workload_specs();
    if (!check_only(only, specs, argv[0])) return 2;
    specs.erase(
        std::remove_if(specs.begin(), specs.end(), [&](const WorkloadSpec &s) { return !selected(only, s.app); }),
        specs.end());
    if (harena_cuda_device_count() == 0) {
        std::printf("no usable CUDA device\n");
        return 0;
    }
    if (!driver_init()) {
        return 1;
    }
    // The graph regime's stream is handed to Halide through the runtime's
    // CUDA hooks, which then answer every pipeline's context and stream
    // questions. Installed before anything is timed, so that every regime
    // pays for them alike.
    if (harena_install_cuda_hooks() != 0) {
        std::fprintf(stderr, "harena-gpu-bench: %s\n", harena_last_error());
        return 1;
    }
    const std::string device = device_description();
    print_header(device, command);
    const auto start = std::chrono::steady_clock::now();
    std::vector<WorkloadResult> results = measure_all(specs, settings, repeats);
    measure_busy_all(specs, settings, results);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n%s, %d repeats in %.0f s\n", device.c_str(), repeats, seconds);
    print_table(results);
    print_graph_stats(results);
    print_targets(results);
    return write_files(results, out, device) ? 0 : 1;
}
