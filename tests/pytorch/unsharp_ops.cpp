// The unsharp mask of generators/argument as PyTorch operators, through the
// wrappers Halide writes (-e pytorch_wrapper) and Halide's own helper headers:
// torch.ops.harena.unsharp_plain and unsharp_planned take (input, arena,
// output) tensors, on the CPU or on the current CUDA device and stream.
// Registered with TORCH_LIBRARY, so that one library loads in any Python
// (torch.ops.load_library). device_allocations() counts Halide's cuMemAlloc
// calls (tests/support/cuda_driver.h). Halide's default error handler ends
// the process; this library's keeps the message and the op raises it.
// Halide's wrappers expect ATen declared before them.
#include <ATen/ATen.h>
#include <torch/library.h>

#include "argument_unsharp_arena.pytorch.h"
#include "argument_unsharp_cuda_arena_torch.pytorch.h"
#include "argument_unsharp_cuda_plain_torch.pytorch.h"
#include "argument_unsharp_plain.pytorch.h"
#include "cuda_driver.h"

#include <string>

namespace {

using Wrapper = int (*)(at::Tensor &, at::Tensor &, at::Tensor &);

// The last error Halide reported on this thread.
thread_local std::string halide_message;

void keep_halide_error(void *, const char *message) {
    halide_message = message;
}

const bool error_handler_installed = (halide_set_error_handler(keep_halide_error), true);

// The wrappers take tensors by reference; a tensor is a counted handle, so
// the copies share the caller's storage. A failed call raises Halide's
// message (the wrapper's own check says only that the call failed).
void call(Wrapper wrapper, const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    at::Tensor in = input;
    at::Tensor a = arena;
    at::Tensor out = output;
    halide_message.clear();
    int result = -1;
    try {
        result = wrapper(in, a, out);
    } catch (const c10::Error &) {
    }
    TORCH_CHECK(result == 0, "the Halide pipeline failed: ", halide_message);
}

void plain_cpu(const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    call(argument_unsharp_plain_th_, input, arena, output);
}

void planned_cpu(const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    call(argument_unsharp_arena_th_, input, arena, output);
}

void plain_cuda(const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    call(argument_unsharp_cuda_plain_torch_th_, input, arena, output);
}

void planned_cuda(const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    call(argument_unsharp_cuda_arena_torch_th_, input, arena, output);
}

int64_t device_allocations() {
    return harena_test::cuda_driver_counts().allocations;
}

int64_t device_frees() {
    return harena_test::cuda_driver_counts().frees;
}

}  // namespace

TORCH_LIBRARY(harena, m) {
    m.def("unsharp_plain(Tensor input, Tensor arena, Tensor(a!) output) -> ()");
    m.def("unsharp_planned(Tensor input, Tensor arena, Tensor(a!) output) -> ()");
    m.def("device_allocations() -> int", &device_allocations);
    m.def("device_frees() -> int", &device_frees);
}

TORCH_LIBRARY_IMPL(harena, CPU, m) {
    m.impl("unsharp_plain", &plain_cpu);
    m.impl("unsharp_planned", &planned_cpu);
}

TORCH_LIBRARY_IMPL(harena, CUDA, m) {
    m.impl("unsharp_plain", &plain_cuda);
    m.impl("unsharp_planned", &planned_cuda);
}
