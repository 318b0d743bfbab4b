// Whether a CUDA device is usable, asked of the driver directly: Halide's
// default error handler aborts the program when its CUDA runtime finds no
// device, so programs that choose between GPU and CPU ask first.
#include "harena/runtime.h"

#include <dlfcn.h>

extern "C" int harena_cuda_device_count(void) {
    static const int count = [] {
        void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (lib == nullptr) {
            return 0;
        }
        auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(lib, "cuInit"));
        auto device_count = reinterpret_cast<int (*)(int *)>(dlsym(lib, "cuDeviceGetCount"));
        int n = 0;
        if (init == nullptr || device_count == nullptr || init(0) != 0 || device_count(&n) != 0) {
            return 0;
        }
        return n;
    }();
    return count;
}
