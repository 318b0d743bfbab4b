#include "cuda_driver.h"

#include <dlfcn.h>

namespace harena::detail {

namespace {

template<typename F>
void bind(void *lib, F &f, const char *name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
}

}  // namespace

const CudaDriver *cuda_driver() {
    static const CudaDriver *driver = []() -> const CudaDriver * {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            return nullptr;
        }
        static CudaDriver d;
        bind(lib, d.init, "cuInit");
        bind(lib, d.device_count, "cuDeviceGetCount");
        bind(lib, d.ctx_push, "cuCtxPushCurrent_v2");
        bind(lib, d.ctx_pop, "cuCtxPopCurrent_v2");
        bind(lib, d.ctx_synchronize, "cuCtxSynchronize");
        bind(lib, d.stream_create, "cuStreamCreate");
        bind(lib, d.stream_destroy, "cuStreamDestroy_v2");
        bind(lib, d.stream_synchronize, "cuStreamSynchronize");
        bind(lib, d.begin_capture, "cuStreamBeginCapture_v2");
        bind(lib, d.end_capture, "cuStreamEndCapture");
        bind(lib, d.graph_instantiate, "cuGraphInstantiateWithFlags");
        bind(lib, d.graph_launch, "cuGraphLaunch");
        bind(lib, d.graph_exec_destroy, "cuGraphExecDestroy");
        bind(lib, d.graph_destroy, "cuGraphDestroy");
        return &d;
    }();
    return driver;
}

}  // namespace harena::detail
