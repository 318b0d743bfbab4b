// libcuda as this project loads it: with dlopen at first use (as Halide's
// runtime does), so that programs link and run without it where there is no
// GPU; types and function-pointer types are the CUDA toolkit's own (cuda.h,
// cudaTypedefs.h). The one loader of the runtime, the tests and the
// benchmarks (defined in the runtime, runtime/src/core/cuda_driver.cpp).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

namespace harena::detail {

// libcuda.so.1 (the driver's soname), loaded once; null where it cannot be.
void *libcuda();

// A driver entry point by its exported name ("cuStreamDestroy_v2"); null
// where libcuda or the symbol is missing.
void *cuda_symbol_address(const char *name);

// The same, typed by the cudaTypedefs.h PFN_ type of the same version
// (cuStreamDestroy_v2: PFN_cuStreamDestroy_v4000).
template<typename PFN>
PFN cuda_symbol(const char *name) {
    return reinterpret_cast<PFN>(cuda_symbol_address(name));
}

}  // namespace harena::detail
