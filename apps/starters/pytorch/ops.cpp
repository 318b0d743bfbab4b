// torch.ops.starter.sharpen(input, arena, output): the planned pipeline on
// CPU or CUDA tensors, through Halide's PyTorch wrappers. Halide's default
// error handler ends the process; this one keeps the message, which the op
// raises (a too-small arena names the bytes it needs).
#include <ATen/ATen.h>
#include <torch/library.h>

// Halide's wrappers expect ATen declared before them.
#include "sharpen_cpu.pytorch.h"
#include "sharpen_cuda.pytorch.h"

#include <string>

namespace {

thread_local std::string halide_message;

void keep_halide_error(void *, const char *message) {
    halide_message = message;
}

const bool error_handler_installed = (halide_set_error_handler(keep_halide_error), true);

template<int (*wrapper)(at::Tensor &, at::Tensor &, at::Tensor &)>
void sharpen(const at::Tensor &input, const at::Tensor &arena, const at::Tensor &output) {
    at::Tensor in = input, a = arena, out = output;
    halide_message.clear();
    int result = -1;
    try {
        result = wrapper(in, a, out);
    } catch (const c10::Error &) {
    }
    TORCH_CHECK(result == 0, "sharpen failed: ", halide_message);
}

}  // namespace

TORCH_LIBRARY(starter, m) {
    m.def("sharpen(Tensor input, Tensor arena, Tensor(a!) output) -> ()");
}

TORCH_LIBRARY_IMPL(starter, CPU, m) {
    m.impl("sharpen", &sharpen<sharpen_cpu_th_>);
}

TORCH_LIBRARY_IMPL(starter, CUDA, m) {
    m.impl("sharpen", &sharpen<sharpen_cuda_th_>);
}
