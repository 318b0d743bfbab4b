// Whether a CUDA device is usable, asked of the driver directly: Halide's
// default error handler aborts the program when its CUDA runtime finds no
// device, so programs that choose between GPU and CPU ask first.
#include "core/cuda_driver.h"
#include "harena/runtime.h"

extern "C" int harena_cuda_device_count(void) {
    static const int count = [] {
        const harena::detail::CudaDriver *d = harena::detail::cuda_driver();
        int n = 0;
        if (d == nullptr || d->init == nullptr || d->device_count == nullptr || d->init(0) != 0 ||
            d->device_count(&n) != 0) {
            return 0;
        }
        return n;
    }();
    return count;
}
