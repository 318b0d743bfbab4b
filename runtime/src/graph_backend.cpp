#include "graph_backend.h"

#include "cuda_driver.h"

namespace harena::detail {

namespace {

int cuda_begin(void *stream) {
    return cuda_driver()->begin_capture(static_cast<CUstream>(stream), CU_STREAM_CAPTURE_MODE_RELAXED);
}

int cuda_end(void *stream, void **graph) {
    return cuda_driver()->end_capture(static_cast<CUstream>(stream), reinterpret_cast<CUgraph *>(graph));
}

int cuda_instantiate(void *graph, void **exec) {
    return cuda_driver()->graph_instantiate(reinterpret_cast<CUgraphExec *>(exec), static_cast<CUgraph>(graph), 0);
}

int cuda_launch(void *exec, void *stream) {
    return cuda_driver()->graph_launch(static_cast<CUgraphExec>(exec), static_cast<CUstream>(stream));
}

void cuda_destroy(void *graph, void *exec) {
    if (exec != nullptr) {
        (void)cuda_driver()->graph_exec_destroy(static_cast<CUgraphExec>(exec));
    }
    if (graph != nullptr) {
        (void)cuda_driver()->graph_destroy(static_cast<CUgraph>(graph));
    }
}

const GraphBackend kCuda = {cuda_begin, cuda_end, cuda_instantiate, cuda_launch, cuda_destroy};

const GraphBackend *installed = nullptr;

}  // namespace

const GraphBackend *graph_backend() {
    if (installed != nullptr) {
        return installed;
    }
    const CudaDriver *d = cuda_driver();
    return d != nullptr && d->has_graphs() ? &kCuda : nullptr;
}

bool graph_backend_is_cuda() {
    return graph_backend() == &kCuda;
}

void set_graph_backend(const GraphBackend *backend) {
    installed = backend;
}

}  // namespace harena::detail
