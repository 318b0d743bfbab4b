// CUDA's events behind StreamEventBackend: each call runs with its context
// current (pushed only where it is not already).
#include "streams/events.h"

#include <atomic>

#include "core/cuda_driver.h"
#include "current_context.h"

namespace harena::detail {

namespace {

const CudaDriver &driver() {
    return *cuda_driver();
}

int context_of(void *stream, void **context) {
    CUcontext ctx = nullptr;
    const CUresult err = stream == nullptr ? driver().ctx_get_current(&ctx) : driver().stream_get_ctx(static_cast<CUstream>(stream), &ctx);
    *context = ctx;
    return err != CUDA_SUCCESS ? err : ctx == nullptr ? CUDA_ERROR_INVALID_CONTEXT :
                                                        CUDA_SUCCESS;
}

int event_create(void *context, void **event) {
    CurrentContext current;
    if (CUresult err = current.make_current(driver(), static_cast<CUcontext>(context))) {
        return err;
    }
    CUevent e = nullptr;
    const CUresult err = driver().event_create(&e, CU_EVENT_DISABLE_TIMING);
    *event = e;
    return err;
}

void event_destroy(void *context, void *event) {
    CurrentContext current;
    if (current.make_current(driver(), static_cast<CUcontext>(context)) == CUDA_SUCCESS) {
        (void)driver().event_destroy(static_cast<CUevent>(event));
    }
}

int record(void *context, void *event, void *stream) {
    CurrentContext current;
    if (CUresult err = current.make_current(driver(), static_cast<CUcontext>(context))) {
        return err;
    }
    return driver().event_record(static_cast<CUevent>(event), static_cast<CUstream>(stream));
}

int wait(void *context, void *stream, void *event) {
    CurrentContext current;
    if (CUresult err = current.make_current(driver(), static_cast<CUcontext>(context))) {
        return err;
    }
    return driver().stream_wait_event(static_cast<CUstream>(stream), static_cast<CUevent>(event), 0);
}

int synchronize(void *context) {
    CurrentContext current;
    if (CUresult err = current.make_current(driver(), static_cast<CUcontext>(context))) {
        return err;
    }
    return driver().ctx_synchronize();
}

const StreamEventBackend cuda_backend{context_of, event_create, event_destroy, record, wait, synchronize};

std::atomic<const StreamEventBackend *> test_backend{nullptr};

}  // namespace

const StreamEventBackend *stream_event_backend() {
    if (const StreamEventBackend *b = test_backend.load(std::memory_order_acquire)) {
        return b;
    }
    const CudaDriver *d = cuda_driver();
    return d != nullptr && d->has_events() ? &cuda_backend : nullptr;
}

void set_stream_event_backend(const StreamEventBackend *backend) {
    test_backend.store(backend, std::memory_order_release);
}

}  // namespace harena::detail
