// The override's routing: which allocations reach the arena and which take
// Halide's default path (scopes, interfaces, threads, planned frames,
// overflows), on the fake device of override_fixture.h.
#include <cstring>
#include <thread>
#include <vector>

#include "HalideBuffer.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "host_arena.h"
#include "override_fixture.h"

using harena_test::Buf;
using harena_test::fake_device_interface;
using harena_test::fake_driver;
using harena_test::last_error_mentions;
using harena_test::Override;

TEST_F(Override, OutsideAScopeHalidesDefaultPathIsTaken) {
    Buf b(1000);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_EQ(fake_driver().mallocs, 1);
    EXPECT_EQ(b.buf.device_interface, fake_device_interface());
    EXPECT_NE(b.buf.device, 0u);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    EXPECT_EQ(fake_driver().frees, 1);
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_EQ(counters().device_default_allocations, 1u);
    EXPECT_EQ(counters().device_default_frees, 1u);
}

TEST_F(Override, InAScopeAllocationsComeFromTheArenaAndNeverReachTheDriver) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf a(1000), b(77, 3), c(5);
    for (Buf *x : {&a, &b, &c}) {
        ASSERT_EQ(halide_device_malloc(nullptr, &x->buf, fake_device_interface()), 0);
        EXPECT_TRUE(in(arena, x->buf));
        EXPECT_EQ(x->buf.device % 256, 0u);
        EXPECT_EQ(x->buf.device_interface, fake_device_interface());
    }
    EXPECT_GE(b.buf.device, a.buf.device + a.bytes());
    EXPECT_GE(c.buf.device, b.buf.device + b.bytes());
    for (Buf *x : {&c, &b, &a}) {
        ASSERT_EQ(halide_device_free(nullptr, &x->buf), 0);
        EXPECT_EQ(x->buf.device, 0u);
        EXPECT_EQ(x->buf.device_interface, nullptr);
    }
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);  // LIFO frees gave everything back
    EXPECT_EQ(fake_driver().mallocs, 0);
    EXPECT_EQ(fake_driver().frees + fake_driver().foreign_frees, 0);
    EXPECT_EQ(fake_driver().wraps, 3);
    EXPECT_EQ(fake_driver().detaches, 3);
    EXPECT_EQ(counters().device_arena_allocations, 3u);
    EXPECT_EQ(counters().device_arena_frees, 3u);
    EXPECT_EQ(counters().device_default_allocations, 0u);
}

TEST_F(Override, NonLifoFreesAreNoOpsUntilTheFramePops) {
    harena::Arena arena = device_arena(1 << 20);
    {
        harena::Scope scope(arena);
        Buf a(1000), b(1000);
        ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, fake_device_interface()), 0);
        ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
        const uint64_t in_use = arena.stats().bytes_in_use;
        ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);
        EXPECT_EQ(arena.stats().bytes_in_use, in_use);
        ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    }
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
    EXPECT_EQ(fake_driver().frees + fake_driver().foreign_frees, 0);
}

TEST_F(Override, AScopeOfAnotherInterfaceDoesNotApply) {
    harena::Arena host = harena::Arena::host(1 << 20);
    harena::Scope scope(host);
    Buf b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_EQ(fake_driver().mallocs, 1);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    EXPECT_EQ(fake_driver().frees, 1);
}

TEST_F(Override, ArenaMemoryFreedOnAnotherThreadStaysOutOfTheDriver) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    std::thread([&] { EXPECT_EQ(halide_device_free(nullptr, &b.buf), 0); }).join();
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_EQ(fake_driver().frees + fake_driver().foreign_frees, 0);
    EXPECT_EQ(counters().device_arena_frees, 1u);
}

TEST_F(Override, OverflowUnderTheErrorPolicyFailsWithAClearMessage) {
    harena::Arena arena = device_arena(4096);
    harena::Scope scope(arena);
    Buf big(2000);
    testing::internal::CaptureStderr();
    EXPECT_EQ(halide_device_malloc(nullptr, &big.buf, fake_device_interface()),
              halide_error_code_device_malloc_failed);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_TRUE(last_error_mentions({"cannot allocate 8000 bytes", "halide_buffer_t", "float32, 2000x1",
                                     "4096 bytes (4.00 KiB) left of 4096 bytes"}));
    EXPECT_EQ(big.buf.device, 0u);
    EXPECT_EQ(fake_driver().mallocs, 0);
    EXPECT_EQ(arena.stats().overflows, 1u);
}

TEST_F(Override, OverflowUnderTheFallbackPolicyUsesTheDefaultAllocator) {
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = device_arena(4096, options);
    harena::Scope scope(arena);
    Buf small(100), big(2000);
    ASSERT_EQ(halide_device_malloc(nullptr, &small.buf, fake_device_interface()), 0);
    testing::internal::CaptureStdout();  // halide_print's stream
    ASSERT_EQ(halide_device_malloc(nullptr, &big.buf, fake_device_interface()), 0);
    const std::string notice = testing::internal::GetCapturedStdout();
    EXPECT_NE(notice.find("fall back"), std::string::npos) << notice;
    EXPECT_FALSE(in(arena, big.buf));
    EXPECT_EQ(fake_driver().mallocs, 1);
    ASSERT_EQ(halide_device_free(nullptr, &big.buf), 0);
    EXPECT_EQ(fake_driver().frees, 1);
    ASSERT_EQ(halide_device_free(nullptr, &small.buf), 0);
    EXPECT_EQ(arena.stats().fallbacks, 1u);
    EXPECT_EQ(counters().device_default_allocations, 1u);
}

TEST_F(Override, TheArenasOwnMemoryComesFromTheDefaultPathEvenInsideAScope) {
    harena::Arena outer = device_arena(1 << 20);
    harena::Scope scope(outer);
    {
        harena::Arena inner = harena::Arena::device(fake_device_interface(), 1 << 16);
        EXPECT_EQ(fake_driver().mallocs, 1);
        EXPECT_EQ(outer.stats().allocations, 0u);
    }
    EXPECT_EQ(fake_driver().frees, 1);
}

TEST_F(Override, APlannedPipelinesFrameRoutesItsUnplannedAllocations) {
    harena::Arena arena = device_arena(1 << 20);
    ASSERT_EQ(harena_pipeline_enter(arena.get(), "p", fake_device_interface(), 4096, 4096, 0, 256), HARENA_OK);
    const uint64_t base = harena_pipeline_base(arena.get());
    Buf b(10);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_EQ(b.buf.device, base + 4096);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    harena_pipeline_exit_as_destructor(arena.get(), reinterpret_cast<void *>(base));
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_EQ(fake_driver().mallocs, 1);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
}

TEST_F(Override, InterleavedFreesGiveBackOnlyWhatIsOnTop) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    const uint64_t base = arena.stats().bytes_in_use;
    Buf a(1000), b(1000), c(1000), d(1000);  // 4000 bytes: 4096 in the arena
    for (Buf *x : {&a, &b, &c}) {
        ASSERT_EQ(halide_device_malloc(nullptr, &x->buf, fake_device_interface()), 0);
    }
    const uint64_t c_address = c.buf.device;
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);  // under c: waits for the pop
    EXPECT_EQ(arena.stats().bytes_in_use, base + 3 * 4096);
    ASSERT_EQ(halide_device_free(nullptr, &c.buf), 0);  // on top: back at once
    EXPECT_EQ(arena.stats().bytes_in_use, base + 2 * 4096);
    ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);  // under b's bytes
    EXPECT_EQ(arena.stats().bytes_in_use, base + 2 * 4096);
    ASSERT_EQ(halide_device_malloc(nullptr, &d.buf, fake_device_interface()), 0);
    EXPECT_EQ(d.buf.device, c_address);
    ASSERT_EQ(halide_device_free(nullptr, &d.buf), 0);
    for (Buf *x : {&a, &b, &c, &d}) {
        EXPECT_EQ(x->buf.device, 0u);
        EXPECT_EQ(x->buf.device_interface, nullptr);
    }
    EXPECT_EQ(arena.stats().allocations, 4u);
    EXPECT_EQ(arena.stats().reclaimed, 2u);
    EXPECT_EQ(counters().device_arena_allocations, 4u);
    EXPECT_EQ(counters().device_arena_frees, 4u);
    EXPECT_EQ(fake_driver().mallocs + fake_driver().frees + fake_driver().foreign_frees, 0);
    EXPECT_EQ(fake_driver().module_uses, fake_driver().module_releases);
}

TEST_F(Override, NestedScopesOnTwoArenasEachTakeTheirOwnMemoryBack) {
    harena::Arena outer = device_arena(1 << 20);
    harena::Arena inner = device_arena(1 << 20);
    Buf x(500), y(500), z(500);
    {
        harena::Scope outer_scope(outer);
        ASSERT_EQ(halide_device_malloc(nullptr, &x.buf, fake_device_interface()), 0);
        EXPECT_TRUE(in(outer, x.buf));
        {
            harena::Scope inner_scope(inner);
            ASSERT_EQ(halide_device_malloc(nullptr, &y.buf, fake_device_interface()), 0);
            EXPECT_TRUE(in(inner, y.buf));
            // The innermost scope does not own x: its bytes go back to outer.
            ASSERT_EQ(halide_device_free(nullptr, &x.buf), 0);
            EXPECT_EQ(outer.stats().bytes_in_use, 0u);
            EXPECT_EQ(outer.stats().reclaimed, 1u);
            EXPECT_EQ(inner.stats().reclaimed, 0u);
            ASSERT_EQ(halide_device_malloc(nullptr, &z.buf, fake_device_interface()), 0);
            EXPECT_TRUE(in(inner, z.buf));
            ASSERT_EQ(halide_device_free(nullptr, &z.buf), 0);
            ASSERT_EQ(halide_device_free(nullptr, &y.buf), 0);
            EXPECT_EQ(inner.stats().bytes_in_use, 0u);
            EXPECT_EQ(inner.stats().reclaimed, 2u);
        }
        // With the inner scope gone, outer serves again.
        ASSERT_EQ(halide_device_malloc(nullptr, &x.buf, fake_device_interface()), 0);
        EXPECT_TRUE(in(outer, x.buf));
        ASSERT_EQ(halide_device_free(nullptr, &x.buf), 0);
    }
    EXPECT_EQ(outer.stats().allocations, 2u);
    EXPECT_EQ(inner.stats().allocations, 2u);
    EXPECT_EQ(counters().device_arena_allocations, 4u);
    EXPECT_EQ(counters().device_arena_frees, 4u);
    EXPECT_EQ(fake_driver().mallocs + fake_driver().frees + fake_driver().foreign_frees, 0);
}

TEST_F(Override, AfterAFallbackRequestsThatFitStillComeFromTheArena) {
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = device_arena(4096, options);
    harena::Scope scope(arena);
    Buf big(2000), small(100);
    testing::internal::CaptureStdout();
    ASSERT_EQ(halide_device_malloc(nullptr, &big.buf, fake_device_interface()), 0);
    (void)testing::internal::GetCapturedStdout();
    ASSERT_EQ(halide_device_malloc(nullptr, &small.buf, fake_device_interface()), 0);
    EXPECT_FALSE(in(arena, big.buf));
    EXPECT_TRUE(in(arena, small.buf));
    // Freed out of order, each goes back where it came from.
    ASSERT_EQ(halide_device_free(nullptr, &big.buf), 0);
    ASSERT_EQ(halide_device_free(nullptr, &small.buf), 0);
    EXPECT_EQ(fake_driver().mallocs, 1);
    EXPECT_EQ(fake_driver().frees, 1);
    EXPECT_EQ(fake_driver().foreign_frees, 0);
    const harena_override_counters c = counters();
    EXPECT_EQ(c.device_arena_allocations, 1u);
    EXPECT_EQ(c.device_arena_frees, 1u);
    EXPECT_EQ(c.device_default_allocations, 1u);
    EXPECT_EQ(c.device_default_frees, 1u);
    const harena_stats s = arena.stats();
    EXPECT_EQ(s.overflows, 1u);
    EXPECT_EQ(s.fallbacks, 1u);
    EXPECT_EQ(s.allocations, 1u);
    EXPECT_EQ(s.reclaimed, 1u);
    EXPECT_EQ(s.bytes_in_use, 0u);
}
