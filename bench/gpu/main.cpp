// harena-gpu-bench: every app pipeline, at two or more sizes (and with the
// size changing on every run for variable_k and pyramid), timed under six
// allocation regimes in one process, the whole suite repeated. Prints the
// table last; writes <out>/<app>.csv and <out>/<app>.svg. See README.md.
//   harena-gpu-bench [--repeats N] [--out DIR] [--seconds S] [--only APP]
#include "driver.h"
#include "measure.h"
#include "report.h"
#include "workloads.h"

#include "harena/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace bench;

int main(int argc, char **argv) {
    int repeats = 2;
    std::string out = ".";
    std::string only;
    Settings settings;
    std::string command = argv[0];
    for (int i = 1; i < argc; i++) {
        command += std::string(" ") + argv[i];
    }
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        if (i + 1 < argc && arg == "--repeats") {
            repeats = std::atoi(argv[++i]);
        } else if (i + 1 < argc && arg == "--out") {
            out = argv[++i];
        } else if (i + 1 < argc && arg == "--seconds") {
            settings.seconds_per_workload = std::atof(argv[++i]);
        } else if (i + 1 < argc && arg == "--only") {
            only = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--repeats N] [--out DIR] [--seconds S-per-workload] [--only APP]\n",
                         argv[0]);
            return 2;
        }
    }
    std::vector<WorkloadSpec> specs = workload_specs();
    if (!only.empty()) {
        specs.erase(std::remove_if(specs.begin(), specs.end(), [&](const WorkloadSpec &s) { return s.app != only; }),
                    specs.end());
        if (specs.empty()) {
            std::fprintf(stderr, "%s: no workload of app '%s'; the apps are", argv[0], only.c_str());
            std::string previous;
            for (const WorkloadSpec &s : workload_specs()) {
                if (s.app != previous) {
                    std::fprintf(stderr, " %s", s.app.c_str());
                }
                previous = s.app;
            }
            std::fprintf(stderr, "\n");
            return 2;
        }
    }
    if (harena_cuda_device_count() == 0) {
        std::printf("no usable CUDA device\n");
        return 0;
    }
    if (!driver_init()) {
        return 1;
    }
    const std::string device = device_description();
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf("harena-gpu-bench on %s, %s\ncommand: %s\n", device.c_str(), date, command.c_str());

    std::vector<WorkloadResult> results(specs.size());
    const auto start = std::chrono::steady_clock::now();
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
            r.launch_bound = specs[s].launch_bound;
            r.arena_bytes = workload->app->arena_bytes;
            r.lower_bound = workload->app->lower_bound;
            r.repeats.push_back(measure(*workload, settings));
            for (const Measurement &m : r.repeats.back()) {
                std::printf("[repeat %d] %-11s %-26s %-16s %9.1f us/run %7.3fx ideal %6.2f allocs/run %8.2f MiB held"
                            "  output %s\n",
                            rep + 1, r.app.c_str(), r.size.c_str(), regime_name(m.regime), m.median_us,
                            m.ratio_to_ideal, m.allocations_per_run,
                            static_cast<double>(m.memory.held) / (1024.0 * 1024.0), output_check_name(m.output));
            }
            std::fflush(stdout);
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("\n%s, %d repeats in %.0f s\n", device.c_str(), repeats, seconds);
    print_table(results);
    print_targets(results);
    write_files(results, out, device);
    return 0;
}
