// The CUDA binding's own state (state.h): the stream the runtime made for an
// arena, and the scope that makes its context current.
#include "core/cuda_driver.h"
#include "cuda/state.h"
#include "cuda/stream_context.h"

namespace harena::detail {

StreamContextScope::StreamContextScope(const CudaBinding &cuda) {
    void *ctx = cuda.owns_stream_ ? cuda.stream_context_ : cuda.binding_.context;
    const CudaDriver *d = cuda_driver();
    if (ctx != nullptr && d != nullptr) {
        (void)current_.make_current(*d, static_cast<CUcontext>(ctx));
    }
}

void CudaBinding::release_stream() {
    if (owns_stream_ && binding_.stream != nullptr) {
        const CudaDriver *d = cuda_driver();
        StreamContextScope in_context(*this);
        (void)d->stream_destroy(static_cast<CUstream>(binding_.stream));
    }
    owns_stream_ = false;
    stream_context_ = nullptr;
    binding_.stream = nullptr;
}

void CudaBinding::set(const harena_cuda_binding &binding) {
    release_stream();
    binding_ = binding;
}

void CudaBinding::adopt_stream(void *stream, void *context) {
    release_stream();
    binding_.stream = stream;
    owns_stream_ = true;
    stream_context_ = context;
}

}  // namespace harena::detail
