// The stand-in graph driver of the graph cache's tests (fake_graph_backend.h).
#include "fake_graph_backend.h"

#include "graph/backend.h"

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

void run_graph(const FakeGraph &graph) {
    for (const auto &k : graph.kernels) {
        k();
    }
}

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
        if (fake.defer_launches) {
            fake.queued.push_back(static_cast<FakeGraph *>(exec));
        } else {
            run_graph(*static_cast<FakeGraph *>(exec));
        }
        return 0;
    },
    [](void *graph, void *exec) {
        delete static_cast<FakeGraph *>(graph != nullptr ? graph : exec);
        fake.graphs_destroyed++;
    },
    [](harena::detail::ReplaySignal *signal, void *) {
        if (fake.fail_signal_create) {
            return 1;  // as CUDA_ERROR_INVALID_VALUE
        }
        fake.signals_made++;
        signal->word = new uint64_t(0);
        signal->count_device = reinterpret_cast<uint64_t>(new uint64_t(0));
        return 0;
    },
    [](const harena::detail::ReplaySignal &signal, void *) {
        uint64_t *word = signal.word;
        auto *count = reinterpret_cast<uint64_t *>(signal.count_device);
        launch_kernel([word, count] { __atomic_store_n(word, ++*count, __ATOMIC_RELEASE); });
        return 0;
    },
    [](harena::detail::ReplaySignal *signal) {
        fake.signals_destroyed++;
        delete signal->word;
        delete reinterpret_cast<uint64_t *>(signal->count_device);
        *signal = harena::detail::ReplaySignal{};
    },
    [](void *) {
        fake.synchronizes++;
        for (const FakeGraph *graph : fake.queued) {
            run_graph(*graph);
        }
        fake.queued.clear();
        return 0;
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
