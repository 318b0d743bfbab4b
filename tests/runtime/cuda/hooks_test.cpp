// The arena answers Halide's CUDA hooks (context and stream) for planned
// pipelines, and hands every other question, with the user's own
// user_context, to the hooks installed before it. The stand-in "previous"
// hooks below are written the way Halide's PyTorch helpers are: they read a
// {device, context, stream} struct from user_context. No GPU needed: the
// hooks are called directly, with stand-in handles.
#include "fake_device.h"
#include "harena/graph.hpp"
#include "host_arena.h"

#include <vector>

#include "HalideRuntimeCuda.h"

// Halide's runtime defines these without declaring them publicly.
extern "C" int halide_cuda_acquire_context(void *user_context, void **ctx, bool create);
extern "C" int halide_cuda_release_context(void *user_context);
extern "C" int halide_cuda_get_stream(void *user_context, void *ctx, void **stream);

namespace {

struct TorchContext {
    int device;
    void *context;
    void *stream;
};

int torch_acquire(void *user_context, void **ctx, bool) {
    *ctx = user_context ? static_cast<TorchContext *>(user_context)->context : nullptr;
    return 0;
}
int torch_release(void *) {
    return 0;
}
int torch_stream(void *user_context, void *, void **stream) {
    *stream = user_context ? static_cast<TorchContext *>(user_context)->stream : nullptr;
    return 0;
}

// The program's own hooks, installed before the arena's, once per process.
void install_torch_then_arena_hooks() {
    static const bool installed = [] {
        halide_set_cuda_acquire_context(reinterpret_cast<halide_cuda_acquire_context_t>(torch_acquire));
        halide_set_cuda_release_context(reinterpret_cast<halide_cuda_release_context_t>(torch_release));
        halide_set_cuda_get_stream(reinterpret_cast<halide_cuda_get_stream_t>(torch_stream));
        return harena_install_cuda_hooks() == HARENA_OK;
    }();
    ASSERT_TRUE(installed) << harena_last_error();
}

int torch_ctx_handle, torch_stream_handle, arena_stream_handle, arena_ctx_handle;

// The fake device behind a public table that records, for every allocation
// and free of device memory, the context Halide's CUDA hooks give the call,
// as Halide's CUDA backend asks for it before calling the driver.
std::vector<void *> malloc_contexts, free_contexts;

void *context_for(void *user_context) {
    void *ctx = nullptr;
    EXPECT_EQ(halide_cuda_acquire_context(user_context, &ctx, true), 0);
    EXPECT_EQ(halide_cuda_release_context(user_context), 0);
    return ctx;
}

int recording_malloc(void *user_context, halide_buffer_t *buf, const halide_device_interface_t *) {
    malloc_contexts.push_back(context_for(user_context));
    const halide_device_interface_t *fake = harena_test::fake_device_interface();
    return fake->device_malloc(user_context, buf, fake);
}

int recording_free(void *user_context, halide_buffer_t *buf) {
    free_contexts.push_back(context_for(user_context));
    return harena_test::fake_device_interface()->device_free(user_context, buf);
}

const halide_device_interface_t *recording_interface() {
    static const halide_device_interface_t table = [] {
        halide_device_interface_t t = *harena_test::fake_device_interface();
        t.device_malloc = recording_malloc;
        t.device_free = recording_free;
        return t;
    }();
    return &table;
}

}  // namespace

TEST(CudaHooks, AnArenaWithAStreamAnswersForItsPipelines) {
    install_torch_then_arena_hooks();
    harena::Arena arena = harena::Arena::host(4096);
    harena_cuda_binding binding{};
    binding.context = &arena_ctx_handle;
    binding.stream = &arena_stream_handle;
    harena::bind_cuda(arena, binding);
    void *ctx = nullptr, *stream = nullptr;
    ASSERT_EQ(halide_cuda_acquire_context(arena.get(), &ctx, true), 0);
    ASSERT_EQ(halide_cuda_get_stream(arena.get(), ctx, &stream), 0);
    EXPECT_EQ(ctx, &arena_ctx_handle);
    EXPECT_EQ(stream, &arena_stream_handle);
    EXPECT_EQ(halide_cuda_release_context(arena.get()), 0);
}

TEST(CudaHooks, AProgramWrittenAgainstTorchStyleHooksKeepsItsStreamThroughTheArena) {
    install_torch_then_arena_hooks();
    TorchContext torch{0, &torch_ctx_handle, &torch_stream_handle};
    // Without the arena: the user's struct reaches the user's hooks as before.
    void *ctx = nullptr, *stream = nullptr;
    ASSERT_EQ(halide_cuda_acquire_context(&torch, &ctx, true), 0);
    ASSERT_EQ(halide_cuda_get_stream(&torch, ctx, &stream), 0);
    EXPECT_EQ(ctx, &torch_ctx_handle);
    EXPECT_EQ(stream, &torch_stream_handle);
    // A planned pipeline's user_context is the arena; the binding carries the
    // user's own user_context, which the user's hooks receive instead.
    harena::Arena arena = harena::Arena::host(4096);
    harena_cuda_binding binding{};
    binding.user_context = &torch;
    harena::bind_cuda(arena, binding);
    ctx = stream = nullptr;
    ASSERT_EQ(halide_cuda_acquire_context(arena.get(), &ctx, true), 0);
    ASSERT_EQ(halide_cuda_get_stream(arena.get(), ctx, &stream), 0);
    EXPECT_EQ(ctx, &torch_ctx_handle);
    EXPECT_EQ(stream, &torch_stream_handle);
}

TEST(CudaHooks, AUserContextThatIsNotAnArenaIsNeverReadAsOne) {
    install_torch_then_arena_hooks();
    TorchContext torch{0, &torch_ctx_handle, &torch_stream_handle};
    harena::Arena arena = harena::Arena::host(4096);
    void *stream = nullptr;
    ASSERT_EQ(halide_cuda_get_stream(&torch, nullptr, &stream), 0);
    EXPECT_EQ(stream, &torch_stream_handle);
    ASSERT_EQ(halide_cuda_get_stream(nullptr, nullptr, &stream), 0);
    EXPECT_EQ(stream, nullptr);
}

TEST(CudaHooks, TheBindingChangesOnlyBetweenRuns) {
    harena::Arena arena = harena::Arena::host(4096);
    harena_frame frame{};
    ASSERT_EQ(harena_push(arena.get(), 0, &frame), HARENA_OK);
    harena_cuda_binding binding{};
    binding.stream = &arena_stream_handle;
    EXPECT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(harena_test::last_error_mentions({"frames pushed", "between runs"}));
    ASSERT_EQ(harena_pop(arena.get(), frame), HARENA_OK);
    EXPECT_EQ(harena_set_cuda_binding(arena.get(), &binding), HARENA_OK);
    harena_cuda_binding read{};
    ASSERT_EQ(harena_get_cuda_binding(arena.get(), &read), HARENA_OK);
    EXPECT_EQ(read.stream, &arena_stream_handle);
}

TEST(CudaHooks, AnArenaMadeForAContextHasItsRegionThereAndAnswersForIt) {
    install_torch_then_arena_hooks();
    malloc_contexts.clear();
    free_contexts.clear();
    TorchContext torch{0, &torch_ctx_handle, &torch_stream_handle};
    harena_cuda_binding binding{};
    binding.context = &arena_ctx_handle;
    binding.stream = &arena_stream_handle;
    binding.user_context = &torch;
    {
        harena::Arena arena = harena::Arena::cuda(recording_interface(), binding, 1 << 16);
        ASSERT_EQ(malloc_contexts.size(), 1u);
        EXPECT_EQ(malloc_contexts[0], &arena_ctx_handle) << "the region belongs to the binding's context";
        void *ctx = nullptr, *stream = nullptr;
        ASSERT_EQ(halide_cuda_acquire_context(arena.get(), &ctx, true), 0);
        ASSERT_EQ(halide_cuda_get_stream(arena.get(), ctx, &stream), 0);
        EXPECT_EQ(ctx, &arena_ctx_handle);
        EXPECT_EQ(stream, &arena_stream_handle);
        // Calls without the arena are the program's hooks' as before.
        EXPECT_EQ(context_for(&torch), &torch_ctx_handle);
    }
    ASSERT_EQ(free_contexts.size(), 1u);
    EXPECT_EQ(free_contexts[0], &arena_ctx_handle) << "the region is freed in the context it came from";
    EXPECT_EQ(context_for(&torch), &torch_ctx_handle);
}

TEST(CudaHooks, AnArenaForAContextNeedsTheContext) {
    install_torch_then_arena_hooks();
    harena_cuda_binding binding{};
    harena_arena *arena = reinterpret_cast<harena_arena *>(&binding);
    EXPECT_EQ(harena_create_cuda(recording_interface(), &binding, 1 << 16, nullptr, &arena),
              HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    EXPECT_TRUE(harena_test::last_error_mentions({"harena_create_cuda", "no context", "cuDevicePrimaryCtxRetain"}));
    binding.context = &arena_ctx_handle;
    EXPECT_EQ(harena_create_cuda(nullptr, &binding, 1 << 16, nullptr, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(harena_test::last_error_mentions({"device_interface is NULL", "halide_cuda_device_interface()"}));
}

TEST(CudaHooks, AnArenaForAContextWhoseStreamCannotBeMadeGivesItsRegionBack) {
    if (harena_cuda_device_count() > 0) {
        GTEST_SKIP() << "a CUDA driver is loaded: the stream would be made in the stand-in context";
    }
    install_torch_then_arena_hooks();
    malloc_contexts.clear();
    free_contexts.clear();
    harena_cuda_binding binding{};
    binding.context = &arena_ctx_handle;  // no stream: the runtime would make one, but no driver is loaded
    harena_arena *arena = nullptr;
    EXPECT_NE(harena_create_cuda(recording_interface(), &binding, 1 << 16, nullptr, &arena), HARENA_OK);
    EXPECT_EQ(arena, nullptr);
    EXPECT_TRUE(harena_test::last_error_mentions({"harena_create_cuda_stream"}));
    EXPECT_EQ(malloc_contexts.size(), 1u);
    ASSERT_EQ(free_contexts.size(), 1u) << "the region is given back";
    EXPECT_EQ(free_contexts[0], &arena_ctx_handle);
}
