// What the CUDA hooks answer for an arena (harena_set_cuda_binding) and the
// stream the runtime made for it (harena_create_cuda_stream). Owned by
// cuda/binding.cpp.
#pragma once

#include "harena/cuda.h"

namespace harena::detail {

class CudaBinding {
public:
    [[nodiscard]] const harena_cuda_binding &get() const {
        return binding_;
    }
    [[nodiscard]] void *stream() const {
        return binding_.stream;
    }
    // Whether the stream is one the runtime made (harena_create_cuda_stream).
    [[nodiscard]] bool owns_stream() const {
        return owns_stream_;
    }
    // Replaces the binding; a stream the runtime made is destroyed first.
    void set(const harena_cuda_binding &binding);
    // The binding's stream becomes one the runtime made in `context`.
    void adopt_stream(void *stream, void *context);
    // Destroys a stream the runtime made (nothing otherwise) and forgets the
    // binding's stream.
    void release_stream();

private:
    friend class StreamContextScope;

    harena_cuda_binding binding_{};
    bool owns_stream_ = false;        // binding_.stream was made by harena_create_cuda_stream
    void *stream_context_ = nullptr;  // the context it was made in
};

// The context an arena with this binding runs its pipelines in, as the CUDA
// hooks answer for it: the binding's own, else what the hooks installed
// before the runtime's give for the binding's user_context; null for
// Halide's own context (or where no hook answers).
void *bound_work_context(const CudaBinding &cuda);

// While alive, the calling thread's CUDA hooks answer every context question
// with `context` (nothing changes when it is null). An arena's own region is
// allocated, grown and freed through Halide's device interface on behalf of
// the caller's user_context, which Halide maps to its own context; an arena
// bound to another context (harena_create_cuda) must have its region there.
class BoundRegionScope {
public:
    explicit BoundRegionScope(void *context);
    ~BoundRegionScope();
    BoundRegionScope(const BoundRegionScope &) = delete;
    BoundRegionScope &operator=(const BoundRegionScope &) = delete;

private:
    void *outer_;
};

}  // namespace harena::detail
