// The stand-in graph driver of the graph cache's tests (fake_graph_backend.h).
#include "fake_graph_backend.h"

#include "graph_backend.h"

namespace harena_test {

FakeDriver fake;

void launch_kernel(std::function<void()> kernel) {
    if (fake.capturing) {
        fake.recording->kernels.push_back(std::move(kernel));
    } else {
        kernel();
    }
}

// A host-to-device copy: captured, it reads `src` when the graph is launched.
void launch_copy(float *dst, const float *src) {
    if (fake.capturing) {
        fake.recording->copy_sources.push_back(src);
    }
    launch_kernel([dst, src] { *dst = *src; });
}

namespace {

const harena::detail::GraphBackend kFakeBackend = {
    [](void *) {
        fake.capturing = true;
        fake.recording = new FakeGraph;
        return 0;
    },
    [](void *, void **graph) {
        fake.capturing = false;
        if (fake.fail_end) {
            fake.fail_end = false;
            delete fake.recording;
            *graph = nullptr;
            return 901;  // as cudaErrorStreamCaptureInvalidated
        }
        *graph = fake.recording;
        fake.graphs_made++;
        return 0;
    },
    [](void *graph, void **exec) {
        *exec = graph;
        return 0;
    },
    [](void *exec, void *) {
        fake.launches++;
        for (auto &k : static_cast<FakeGraph *>(exec)->kernels) {
            k();
        }
        return 0;
    },
    [](void *graph, void *exec) {
        delete static_cast<FakeGraph *>(graph != nullptr ? graph : exec);
        fake.graphs_destroyed++;
    },
};

}  // namespace

FakeBackendInstalled::FakeBackendInstalled() {
    fake = FakeDriver{};
    harena::detail::set_graph_backend(&kFakeBackend);
}

FakeBackendInstalled::~FakeBackendInstalled() {
    harena::detail::set_graph_backend(nullptr);
}

}  // namespace harena_test
