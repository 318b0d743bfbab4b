// A context made current on the calling thread for a scope, for the
// runtime's stream and graph calls (StreamContextScope) and the launch path
// (CallContext): pushed only where it is not current already, and popped
// again. A thread that keeps its GPU's context current, as a CUDA program's
// thread does after cudaSetDevice, pays one cuCtxGetCurrent.
#pragma once

#include "harena_libcuda.h"

namespace harena::detail {

class CurrentContext {
public:
    CurrentContext() = default;
    ~CurrentContext() {
        restore();
    }
    CurrentContext(const CurrentContext &) = delete;
    CurrentContext &operator=(const CurrentContext &) = delete;

    // CUDA_SUCCESS once `ctx` is current, else the push's error. `driver`
    // is any of the runtime's driver tables (ctx_get_current, ctx_push,
    // ctx_pop); without ctx_get_current the context is pushed.
    template<typename Driver>
    CUresult make_current(const Driver &driver, CUcontext ctx) {
        CUcontext current = nullptr;
        if (driver.ctx_get_current != nullptr && driver.ctx_get_current(&current) == CUDA_SUCCESS && current == ctx) {
            return CUDA_SUCCESS;
        }
        const CUresult err = driver.ctx_push(ctx);
        if (err == CUDA_SUCCESS) {
            pop_ = driver.ctx_pop;
        }
        return err;
    }

    // Pops what make_current pushed, if anything.
    void restore() {
        if (pop_ != nullptr) {
            CUcontext popped = nullptr;
            (void)pop_(&popped);
            pop_ = nullptr;
        }
    }

private:
    PFN_cuCtxPopCurrent_v4000 pop_ = nullptr;  // set while a push is to be undone
};

}  // namespace harena::detail
