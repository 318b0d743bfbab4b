#include "trace_families.h"

#include <cstdio>
#include <fstream>

#include "solver/csv.h"
#include "solver_instances/instances.h"

namespace harena::bench {

const std::vector<TraceFamily> &trace_families() {
    static const std::vector<TraceFamily> families = {
        {"training", [](size_t n, uint64_t seed) { return instances::training_trace(n, seed, 1); }},
        {"accumulation", [](size_t n, uint64_t seed) { return instances::training_trace(n, seed, 4); }},
        {"graph", instances::graph_trace},
    };
    return families;
}

const std::vector<size_t> &trace_sizes() {
    static const std::vector<size_t> sizes = {1000, 4000, 18000, 28000, 62000};
    return sizes;
}

bool write_traces(const std::string &dir, int seeds) {
    for (const TraceFamily &family : trace_families()) {
        for (size_t n : trace_sizes()) {
            for (int seed = 1; seed <= seeds; seed++) {
                const std::string path = dir + "/" + family.name + "-" + std::to_string(n) + "-" + std::to_string(seed) + ".csv";
                std::ofstream out(path);
                write_problem_csv(out, family.make(n, uint64_t(seed)));
                out.flush();
                if (!out) {
                    std::fprintf(stderr, "cannot write %s\n", path.c_str());
                    return false;
                }
            }
        }
    }
    return true;
}

}  // namespace harena::bench
