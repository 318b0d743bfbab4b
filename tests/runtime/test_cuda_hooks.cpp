// The arena answers Halide's CUDA hooks (context and stream) for planned
// pipelines, and hands every other question, with the user's own
// user_context, to the hooks installed before it. The stand-in "previous"
// hooks below are written the way Halide's PyTorch helpers are: they read a
// {device, context, stream} struct from user_context. No GPU needed: the
// hooks are called directly, with stand-in handles.
#include "harena/graph.hpp"
#include "host_arena.h"

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
