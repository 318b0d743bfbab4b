#include "graph_backend.h"

#include "cuda_driver.h"

namespace harena::detail {

namespace {

int cuda_begin(void *stream) {
    return cuda_driver()->begin_capture(stream, kCaptureModeRelaxed);
}

int cuda_end(void *stream, void **graph) {
    return cuda_driver()->end_capture(stream, graph);
}

int cuda_instantiate(void *graph, void **exec) {
    return cuda_driver()->graph_instantiate(exec, graph, 0);
}

int cuda_launch(void *exec, void *stream) {
    return cuda_driver()->graph_launch(exec, stream);
}

void cuda_destroy(void *graph, void *exec) {
    if (exec != nullptr) {
        (void)cuda_driver()->graph_exec_destroy(exec);
    }
    if (graph != nullptr) {
        (void)cuda_driver()->graph_destroy(graph);
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

void set_graph_backend(const GraphBackend *backend) {
    installed = backend;
}

}  // namespace harena::detail
