// The CUDA driver as the GPU tests see it: whether one is usable, and how
// many allocations and frees Halide's runtime made in it. Halide finds every
// driver function through its weak halide_cuda_get_symbol, which the GPU test
// binary replaces to count cuMemAlloc and cuMemFree.
#pragma once

namespace harena_test {

// libcuda loads, cuInit succeeds and a device exists.
bool cuda_usable();

struct CudaDriverCounts {
    int allocations = 0;
    int frees = 0;
};

CudaDriverCounts cuda_driver_counts();
void reset_cuda_driver_counts();

}  // namespace harena_test
