#include "graph/backend.h"

#include "core/cuda_driver.h"
#include "harena_libcuda.h"

#include <cstdint>

namespace harena::detail {

namespace {

// The completion word's kernel (graph/replay_signal.h), one thread: adds one to
// the count in device memory and stores it in the host word, after a
// system-wide fence so that the word is the last thing the graph writes.
// PTX for the oldest target the driver compiles it for.
constexpr char kSignalPtx[] = R"PTX(
.version 6.0
.target sm_50
.address_size 64

.visible .entry harena_replay_signal(.param .u64 count, .param .u64 word)
{
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [count];
    ld.param.u64 %rd2, [word];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    ld.global.u64 %rd5, [%rd3];
    add.s64 %rd5, %rd5, 1;
    st.global.u64 [%rd3], %rd5;
    membar.sys;
    st.volatile.global.u64 [%rd4], %rd5;
    ret;
}
)PTX";

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

void cuda_signal_destroy(ReplaySignal *signal) {
    const CudaDriver &d = *cuda_driver();
    if (signal->word != nullptr) {
        (void)d.mem_free_host(signal->word);
    }
    if (signal->count_device != 0) {
        (void)d.mem_free(signal->count_device);
    }
    if (signal->module != nullptr) {
        (void)d.module_unload(static_cast<CUmodule>(signal->module));
    }
    *signal = ReplaySignal{};
}

int cuda_signal_create(ReplaySignal *signal, void *stream) {
    const CudaDriver &d = *cuda_driver();
    if (!d.has_signals()) {
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    *signal = ReplaySignal{};
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    CUdeviceptr count = 0;
    void *word = nullptr;
    CUdeviceptr word_device = 0;
    CUresult err = d.module_load_data(&module, kSignalPtx);
    signal->module = module;
    if (err == CUDA_SUCCESS) {
        err = d.module_get_function(&function, module, "harena_replay_signal");
    }
    if (err == CUDA_SUCCESS) {
        err = d.mem_alloc(&count, sizeof(uint64_t));
        signal->count_device = count;
    }
    if (err == CUDA_SUCCESS) {
        err = d.mem_host_alloc(&word, sizeof(uint64_t), CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
        signal->word = static_cast<uint64_t *>(word);
    }
    if (err == CUDA_SUCCESS) {
        *signal->word = 0;
        err = d.mem_host_get_device_pointer(&word_device, word, 0);
    }
    if (err == CUDA_SUCCESS) {
        err = d.memset_d8_async(count, 0, sizeof(uint64_t), static_cast<CUstream>(stream));
    }
    if (err != CUDA_SUCCESS) {
        cuda_signal_destroy(signal);
        return err;
    }
    signal->function = function;
    signal->word_device = word_device;
    return 0;
}

int cuda_signal_enqueue(const ReplaySignal &signal, void *stream) {
    CUdeviceptr count = signal.count_device, word = signal.word_device;
    void *arguments[] = {&count, &word};
    return cuda_driver()->launch_kernel(static_cast<CUfunction>(signal.function), 1, 1, 1, 1, 1, 1, 0,
                                        static_cast<CUstream>(stream), arguments, nullptr);
}

int cuda_synchronize(void *stream) {
    return cuda_driver()->stream_synchronize(static_cast<CUstream>(stream));
}

const GraphBackend kCuda = {cuda_begin, cuda_end, cuda_instantiate, cuda_launch, cuda_destroy,
                            cuda_signal_create, cuda_signal_enqueue, cuda_signal_destroy, cuda_synchronize};

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

std::string driver_failure(const char *call, int code) {
    static const auto error_name = libcuda() != nullptr ? cuda_symbol<PFN_cuGetErrorName_v6000>("cuGetErrorName") : nullptr;
    const char *name = nullptr;
    if (error_name == nullptr || error_name(static_cast<CUresult>(code), &name) != CUDA_SUCCESS || name == nullptr) {
        name = "CUDA error";
    }
    return std::string(call) + " returned " + name + " (" + std::to_string(code) + ")";
}

}  // namespace harena::detail
