#include "graph/graph_dump.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/cuda_driver.h"

namespace harena::detail {

void dump_graph_if_asked(void *graph) {
    static const char *const folder = std::getenv("HARENA_GRAPH_DOT");
    const CudaDriver *d = cuda_driver();
    if (folder == nullptr || d == nullptr || d->graph_debug_dot_print == nullptr) {
        return;
    }
    static std::atomic<unsigned> written{0};
    const std::string path = std::string(folder) + "/harena-graph-" + std::to_string(written++) + ".dot";
    if (d->graph_debug_dot_print(static_cast<CUgraph>(graph), path.c_str(), CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE) !=
        CUDA_SUCCESS) {
        std::fprintf(stderr, "harena: HARENA_GRAPH_DOT: could not write %s\n", path.c_str());
    }
}

}  // namespace harena::detail
