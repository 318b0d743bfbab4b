// runtime/src/core/halide_device_impl.h transcribes the backend table behind a
// Halide device interface, which Halide does not install. This checks the
// transcription entry by entry against the release's own runtime: the CUDA
// interface of a linked host-cuda pipeline must hold, in each named field,
// the CUDA backend's function of that name (Halide's src/runtime/cuda.cpp
// fills the table with them in declaration order, in 14 and 21 alike). The
// backend functions are declared here, as the runtime defines them: Halide's
// headers do not declare them.
#include <gtest/gtest.h>

#include "HalideRuntimeCuda.h"
#include "core/halide_device_impl.h"
#include "harena_rt_chain_cuda.h"

extern "C" {
void halide_use_jit_module();
void halide_release_jit_module();
int halide_cuda_device_malloc(void *user_context, halide_buffer_t *buf);
int halide_cuda_device_free(void *user_context, halide_buffer_t *buf);
int halide_cuda_device_sync(void *user_context, halide_buffer_t *buf);
int halide_cuda_device_release(void *user_context);
int halide_cuda_copy_to_host(void *user_context, halide_buffer_t *buf);
int halide_cuda_copy_to_device(void *user_context, halide_buffer_t *buf);
int halide_cuda_device_and_host_malloc(void *user_context, halide_buffer_t *buf);
int halide_cuda_device_and_host_free(void *user_context, halide_buffer_t *buf);
int halide_cuda_buffer_copy(void *user_context, halide_buffer_t *src, const halide_device_interface_t *dst_interface,
                            halide_buffer_t *dst);
int halide_cuda_device_crop(void *user_context, const halide_buffer_t *src, halide_buffer_t *dst);
int halide_cuda_device_slice(void *user_context, const halide_buffer_t *src, int slice_dim, int slice_pos,
                             halide_buffer_t *dst);
int halide_cuda_device_release_crop(void *user_context, halide_buffer_t *buf);
}

TEST(HalideDeviceImpl, EveryEntryIsTheReleasesCudaBackendFunctionOfThatName) {
    ASSERT_NE(reinterpret_cast<void *>(&harena_rt_chain_cuda), nullptr);
    const harena::detail::HalideDeviceImpl *impl = harena::detail::impl_of(halide_cuda_device_interface());
    ASSERT_NE(impl, nullptr);
    EXPECT_EQ(impl->use_module, &halide_use_jit_module);
    EXPECT_EQ(impl->release_module, &halide_release_jit_module);
    EXPECT_EQ(impl->device_malloc, &halide_cuda_device_malloc);
    EXPECT_EQ(impl->device_free, &halide_cuda_device_free);
    EXPECT_EQ(impl->device_sync, &halide_cuda_device_sync);
    EXPECT_EQ(impl->device_release, &halide_cuda_device_release);
    EXPECT_EQ(impl->copy_to_host, &halide_cuda_copy_to_host);
    EXPECT_EQ(impl->copy_to_device, &halide_cuda_copy_to_device);
    EXPECT_EQ(impl->device_and_host_malloc, &halide_cuda_device_and_host_malloc);
    EXPECT_EQ(impl->device_and_host_free, &halide_cuda_device_and_host_free);
    EXPECT_EQ(impl->buffer_copy, &halide_cuda_buffer_copy);
    EXPECT_EQ(impl->device_crop, &halide_cuda_device_crop);
    EXPECT_EQ(impl->device_slice, &halide_cuda_device_slice);
    EXPECT_EQ(impl->device_release_crop, &halide_cuda_device_release_crop);
    // The last two are public (HalideRuntimeCuda.h).
    EXPECT_EQ(impl->wrap_native, &halide_cuda_wrap_device_ptr);
    EXPECT_EQ(impl->detach_native, &halide_cuda_detach_device_ptr);
}
