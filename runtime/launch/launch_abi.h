// The Halide runtime entry points the launch path answers, as each release
// declares and calls them. Everything here was read in Halide 14's source
// (src/runtime/cuda.cpp, gpu_context_common.h, OffloadGPULoops.cpp) and
// checked against the installed release's headers at compile time: a release
// that changes a signature fails to compile here, not at a call.
#pragma once

#include "HalideRuntimeCuda.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

// Defined in Halide's CUDA runtime but not declared in its public headers;
// weak so that a program without a CUDA pipeline still links (tests).
extern "C" int halide_cuda_acquire_context(void *user_context, void **ctx, bool create) __attribute__((weak));
extern "C" int halide_cuda_release_context(void *user_context) __attribute__((weak));
extern "C" int halide_cuda_get_stream(void *user_context, void *ctx, void **stream) __attribute__((weak));

namespace harena::detail::launch {

// The hooks' types come from the release's header (halide_set_cuda_*); the
// functions that call them must agree.
static_assert(std::is_same_v<decltype(&halide_cuda_acquire_context), halide_cuda_acquire_context_t>,
              "halide_cuda_acquire_context: this release's hook type differs; update launch_abi.h");
static_assert(std::is_same_v<decltype(&halide_cuda_release_context), halide_cuda_release_context_t>,
              "halide_cuda_release_context: this release's hook type differs; update launch_abi.h");
static_assert(std::is_same_v<decltype(&halide_cuda_get_stream), halide_cuda_get_stream_t>,
              "halide_cuda_get_stream: this release's hook type differs; update launch_abi.h");

// The kernel-launch entry points generated code calls (HalideRuntimeCuda.h
// declares them "to allow clients to override the Halide Cuda runtime"). The
// definitions in cuda_launch.cpp are checked against these declarations by
// the compiler (an extern "C" function has one signature).
using InitializeKernels = int (*)(void *user_context, void **state_ptr, const char *src, int size);
using Run = int (*)(void *user_context, void *state_ptr, const char *entry_name, int blocks_x, int blocks_y,
                    int blocks_z, int threads_x, int threads_y, int threads_z, int shared_mem_bytes,
                    size_t arg_sizes[], void *args[], int8_t arg_is_buffer[]);
using FinalizeKernels = void (*)(void *user_context, void *state_ptr);
static_assert(std::is_same_v<decltype(&halide_cuda_initialize_kernels), InitializeKernels>,
              "halide_cuda_initialize_kernels: this release's signature differs; update launch_abi.h");
static_assert(std::is_same_v<decltype(&halide_cuda_run), Run>,
              "halide_cuda_run: this release's signature differs (e.g. argument types instead of sizes); "
              "update launch_abi.h and the argument translation in cuda_launch.cpp");
static_assert(std::is_same_v<decltype(&halide_cuda_finalize_kernels), FinalizeKernels>,
              "halide_cuda_finalize_kernels: this release's signature differs; update launch_abi.h");

// The state variable: generated code passes its address to initialize_kernels
// and its value, loaded afterwards, to run and finalize_kernels (one
// zero-initialized void * per pipeline function and GPU API). Halide's own
// runtime stores a cache id in it; the launch path stores its ModuleSource *.
static_assert(sizeof(void *) == sizeof(uintptr_t), "the state variable holds a pointer");

// Module loading as Halide's compile_kernel does it: at most 64 registers per
// thread, or HL_CUDA_JIT_MAX_REGISTERS where set, so that the code the driver
// generates is the same.
constexpr unsigned default_max_registers = 64;
constexpr const char *max_registers_variable = "HL_CUDA_JIT_MAX_REGISTERS";

// Kernel arguments: arg_sizes is zero-terminated; a buffer argument
// (arg_is_buffer[i]) is a halide_buffer_t * whose device field is passed.
constexpr size_t buffer_argument_size = sizeof(uint64_t);

}  // namespace harena::detail::launch
