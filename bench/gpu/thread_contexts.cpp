#include "thread_contexts.h"

#include "HalideRuntimeCuda.h"
#include "cuda_driver.h"

namespace bench {
namespace {

thread_local void *thread_context = nullptr;
thread_local void *thread_stream = nullptr;
halide_cuda_acquire_context_t halide_acquire = nullptr;
halide_cuda_release_context_t halide_release = nullptr;

int acquire(void *user_context, void **ctx, bool create) {
    if (thread_context != nullptr) {
        *ctx = thread_context;
        return 0;
    }
    return halide_acquire(user_context, ctx, create);
}

int release(void *user_context) {
    return thread_context != nullptr ? 0 : halide_release(user_context);
}

int get_stream(void *, void *, void **stream) {
    *stream = thread_stream;
    return 0;
}

}  // namespace

void install_thread_hooks() {
    halide_acquire = halide_set_cuda_acquire_context(acquire);
    halide_release = halide_set_cuda_release_context(release);
    halide_set_cuda_get_stream(get_stream);
}

void bind_thread_device(void *context, void *stream) {
    thread_context = context;
    thread_stream = stream;
}

ThreadDevice::ThreadDevice(void *context, void *stream)
    : outer_context_(thread_context), outer_stream_(thread_stream) {
    bind_thread_device(context, stream);
}

ThreadDevice::~ThreadDevice() {
    bind_thread_device(outer_context_, outer_stream_);
}

std::vector<void *> device_contexts(int count) {
    const std::vector<CUcontext> contexts = harena_test::primary_contexts(count);
    return std::vector<void *>(contexts.begin(), contexts.end());
}

}  // namespace bench
