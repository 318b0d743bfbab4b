// The override against Halide's real CUDA interface, in the part that needs
// no GPU: binding arena memory to buffers and detaching it is bookkeeping in
// Halide's CUDA runtime, with no driver call.
#include <atomic>
#include <future>
#include <thread>
#include <vector>

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

namespace {

// A 2-D float intermediate as a pipeline declares it: no memory yet.
struct Intermediate {
    explicit Intermediate(int width = 64, int height = 64) {
        dim[0] = halide_dimension_t{0, width, 1, 0};
        dim[1] = halide_dimension_t{0, height, width, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dim;
    }
    halide_dimension_t dim[2];
    halide_buffer_t buf{};
};

harena_override_counters override_counters() {
    harena_override_counters c;
    harena_override_get_counters(&c);
    return c;
}

}  // namespace

TEST(OverrideCuda, InterleavedFreesAndNestedScopesOnTwoArenas) {
    alignas(256) static unsigned char outer_region[1 << 16], inner_region[1 << 16];
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena outer = harena::Arena::wrap(cuda, reinterpret_cast<uint64_t>(outer_region), sizeof(outer_region));
    harena::Arena inner = harena::Arena::wrap(cuda, reinterpret_cast<uint64_t>(inner_region), sizeof(inner_region));
    harena_override_reset_counters();
    Intermediate a, b, c;
    {
        harena::Scope outer_scope(outer);
        ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, cuda), 0);
        ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, cuda), 0);
        EXPECT_EQ(a.buf.device, outer.base());
        EXPECT_EQ(b.buf.device, outer.base() + 64 * 64 * 4);
        {
            harena::Scope inner_scope(inner);
            ASSERT_EQ(halide_device_malloc(nullptr, &c.buf, cuda), 0);
            EXPECT_EQ(c.buf.device, inner.base());
            // a and b belong to the outer arena, freed while the inner scope
            // is the innermost: b is on top there, a then is too.
            ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
            ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);
            EXPECT_EQ(outer.stats().bytes_in_use, 0u);
            EXPECT_EQ(inner.stats().bytes_in_use, 64u * 64 * 4);
            ASSERT_EQ(halide_device_free(nullptr, &c.buf), 0);
            EXPECT_EQ(inner.stats().bytes_in_use, 0u);
        }
    }
    for (Intermediate *x : {&a, &b, &c}) {
        EXPECT_EQ(x->buf.device, 0u);
        EXPECT_EQ(x->buf.device_interface, nullptr);
    }
    EXPECT_EQ(outer.stats().reclaimed, 2u);
    EXPECT_EQ(inner.stats().reclaimed, 1u);
    const harena_override_counters n = override_counters();
    EXPECT_EQ(n.device_arena_allocations, 3u);
    EXPECT_EQ(n.device_arena_frees, 3u);
    EXPECT_EQ(n.device_default_allocations + n.device_default_frees, 0u);
}

TEST(OverrideCuda, CountersAreExactWhenThreadsCountAtOnce) {
    constexpr int kThreads = 4;
    constexpr int kPairs = 5000;
    // Room for every allocation even if none were reclaimed: a thread's free
    // gives its bytes back only when no other thread allocated after it.
    static std::vector<unsigned char> region(kThreads * kPairs * 256 + 4096);
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena arena = harena::Arena::wrap(cuda, reinterpret_cast<uint64_t>(region.data()), region.size());
    harena::Scope scope(arena);
    harena_override_reset_counters();
    std::atomic<int> ready{0};
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&] {
            harena_scope attached;
            if (harena_scope_attach(&attached, arena.get()) != HARENA_OK) {
                failures++;
                return;
            }
            ready++;
            while (ready.load() < kThreads) {
                std::this_thread::yield();
            }
            Intermediate x(8, 8);
            for (int i = 0; i < kPairs; i++) {
                failures += halide_device_malloc(nullptr, &x.buf, cuda) != 0;
                failures += halide_device_free(nullptr, &x.buf) != 0;
            }
            failures += harena_scope_end(&attached) != HARENA_OK;
        });
    }
    for (auto &t : threads) {
        t.join();
    }
    EXPECT_EQ(failures.load(), 0);
    // The threads have exited: their counts were folded in, none lost.
    const harena_override_counters n = override_counters();
    EXPECT_EQ(n.device_arena_allocations, uint64_t(kThreads) * kPairs);
    EXPECT_EQ(n.device_arena_frees, uint64_t(kThreads) * kPairs);
    EXPECT_EQ(n.device_default_allocations + n.device_default_frees, 0u);
    EXPECT_EQ(arena.stats().allocations, uint64_t(kThreads) * kPairs);
}

TEST(OverrideCuda, AResetAppliesToThreadsThatHaveAlreadyCounted) {
    alignas(256) static unsigned char region[1 << 16];
    const halide_device_interface_t *cuda = halide_cuda_device_interface();
    harena::Arena arena = harena::Arena::wrap(cuda, reinterpret_cast<uint64_t>(region), sizeof(region));
    harena::Scope scope(arena);
    std::promise<void> counted, reset, counted_again;
    std::thread worker([&] {
        harena_scope attached;
        ASSERT_EQ(harena_scope_attach(&attached, arena.get()), HARENA_OK);
        Intermediate x;
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(halide_device_malloc(nullptr, &x.buf, cuda), 0);
            EXPECT_EQ(halide_device_free(nullptr, &x.buf), 0);
        }
        counted.set_value();
        reset.get_future().wait();
        EXPECT_EQ(halide_device_malloc(nullptr, &x.buf, cuda), 0);
        EXPECT_EQ(halide_device_free(nullptr, &x.buf), 0);
        counted_again.set_value();
        EXPECT_EQ(harena_scope_end(&attached), HARENA_OK);
    });
    counted.get_future().wait();
    harena_override_reset_counters();
    EXPECT_EQ(override_counters().device_arena_allocations, 0u);
    reset.set_value();
    counted_again.get_future().wait();
    EXPECT_EQ(override_counters().device_arena_allocations, 1u);  // counted by a live thread
    worker.join();
    EXPECT_EQ(override_counters().device_arena_allocations, 1u);  // and still once it has exited
    EXPECT_EQ(override_counters().device_arena_frees, 1u);
}
