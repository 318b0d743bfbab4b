// The override against Halide's real CUDA interface, in the part that needs
// no GPU: binding arena memory to buffers and detaching it is bookkeeping in
// Halide's CUDA runtime, with no driver call.
#include "HalideRuntimeCuda.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "harena_rt_chain_cuda.h"
#include "host_arena.h"

TEST(OverrideCuda, TheOverrideReplacesHalidesEntryPointsInTheCudaInterface) {
    // A host-cuda pipeline is linked in; its runtime's CUDA interface table
    // must now point at the override's definitions.
    ASSERT_NE(reinterpret_cast<void *>(&harena_rt_chain_cuda), nullptr);
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    EXPECT_EQ(cuda->device_malloc, &halide_device_malloc);
    EXPECT_EQ(cuda->device_free, &halide_device_free);
    EXPECT_EQ(cuda->device_and_host_malloc, &halide_device_and_host_malloc);
    EXPECT_EQ(cuda->device_and_host_free, &halide_device_and_host_free);
}

TEST(OverrideCuda, ArenaMemoryIsBoundAndDetachedThroughTheCudaInterface) {
    // Stands in for memory from another allocator; Halide never dereferences
    // a device address on this path.
    alignas(256) static unsigned char region[1 << 16];
    harena::Arena arena = harena::Arena::wrap(halide_cuda_device_interface(), reinterpret_cast<uint64_t>(region),
                                              sizeof(region));
    harena_override_reset_counters();
    halide_dimension_t dim{0, 1000, 1, 0};
    halide_buffer_t buf{};
    buf.type = halide_type_of<float>();
    buf.dimensions = 1;
    buf.dim = &dim;
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_device_malloc(nullptr, &buf, halide_cuda_device_interface()), 0);
        EXPECT_EQ(buf.device, arena.base());
        EXPECT_EQ(buf.device_interface, halide_cuda_device_interface());
        EXPECT_EQ(halide_cuda_get_device_ptr(nullptr, &buf), arena.base());
        ASSERT_EQ(halide_device_free(nullptr, &buf), 0);
        EXPECT_EQ(buf.device, 0u);
        EXPECT_EQ(buf.device_interface, nullptr);
    }
    harena_override_counters c;
    harena_override_get_counters(&c);
    EXPECT_EQ(c.device_arena_allocations, 1u);
    EXPECT_EQ(c.device_arena_frees, 1u);
    EXPECT_EQ(c.device_default_allocations + c.device_default_frees, 0u);
}
