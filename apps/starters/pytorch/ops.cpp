// torch.ops.starter.sharpen(input, arena, output): the planned pipeline on
// CPU or CUDA tensors, through Halide's PyTorch wrappers; and
// torch.ops.starter.sharpen_arena_bytes(input, output): the bytes a call at
// those tensors' sizes needs, asked of the pipeline of that device. Halide's
// default error handler ends the process; this one keeps the message, which
// the op raises (a too-small arena names the bytes it needs).
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

using Halide::Runtime::Buffer;

int query_cpu(Buffer<float> &input, Buffer<uint8_t> &arena, Buffer<float> &output) {
    return sharpen_cpu(input, arena, output);
}

// With the device and stream Halide's CUDA helpers read from user_context,
// as the CUDA wrapper passes them.
int query_cuda(Buffer<float> &input, Buffer<uint8_t> &arena, Buffer<float> &output) {
    int device_id = at::cuda::current_device();
    CUcontext context = nullptr;
    TORCH_CHECK(cuCtxGetCurrent(&context) == CUDA_SUCCESS, "sharpen_arena_bytes: no current CUDA context");
    cudaStream_t stream = at::cuda::getCurrentCUDAStream(device_id);
    Halide::PyTorch::UserContext user_context(device_id, &context, &stream);
    return sharpen_cuda(&user_context, input, arena, output);
}

// The pipeline answers a bounds query on its arena (a buffer with no
// memory) with the bytes the call needs, and runs nothing: the input and
// output are passed as their shapes only.
template<int (*query)(Buffer<float> &, Buffer<uint8_t> &, Buffer<float> &)>
int64_t sharpen_arena_bytes(const at::Tensor &input, const at::Tensor &output) {
    TORCH_CHECK(input.dim() == 2 && output.dim() == 2, "sharpen_arena_bytes: input and output are 2-D (y, x)");
    Buffer<float> in(nullptr, Halide::PyTorch::get_dims(input)), out(nullptr, Halide::PyTorch::get_dims(output));
    Buffer<uint8_t> arena(nullptr, 0);
    halide_message.clear();
    const int result = query(in, arena, out);
    TORCH_CHECK(result == 0, "sharpen_arena_bytes failed: ", halide_message);
    return arena.dim(0).extent();
}

}  // namespace

TORCH_LIBRARY(starter, m) {
    m.def("sharpen(Tensor input, Tensor arena, Tensor(a!) output) -> ()");
    m.def("sharpen_arena_bytes(Tensor input, Tensor output) -> int");
}

TORCH_LIBRARY_IMPL(starter, CPU, m) {
    m.impl("sharpen", &sharpen<sharpen_cpu_th_>);
    m.impl("sharpen_arena_bytes", &sharpen_arena_bytes<query_cpu>);
}

TORCH_LIBRARY_IMPL(starter, CUDA, m) {
    m.impl("sharpen", &sharpen<sharpen_cuda_th_>);
    m.impl("sharpen_arena_bytes", &sharpen_arena_bytes<query_cuda>);
}
