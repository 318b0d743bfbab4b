// The override's routing, with a device interface whose device memory is host
// memory (fake_device.h): what reaches the backend is what would reach the
// CUDA driver.
#include <cstring>
#include <thread>
#include <vector>

#include "HalideBuffer.h"
#include "fake_device.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "host_arena.h"

// Halide's runtime defines these; its public header does not declare them.
extern "C" void halide_device_free_as_destructor(void *user_context, void *obj);
extern "C" void halide_device_and_host_free_as_destructor(void *user_context, void *obj);

using harena_test::fake_device_interface;
using harena_test::fake_driver;
using harena_test::last_error_mentions;

namespace {

// A dense float buffer without memory, as a pipeline declares an intermediate.
struct Buf {
    explicit Buf(int extent0, int extent1 = 1) {
        dim[0] = halide_dimension_t{0, extent0, 1, 0};
        dim[1] = halide_dimension_t{0, extent1, extent0, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dim;
    }
    uint64_t bytes() const { return buf.size_in_bytes(); }
    halide_dimension_t dim[2];
    halide_buffer_t buf{};
};

class Override : public ::testing::Test {
protected:
    void SetUp() override {
        harena_test::reset_fake_driver();
        harena_override_reset_counters();
    }

    static harena::Arena device_arena(uint64_t capacity, harena::Options options = {}) {
        harena::Arena arena = harena::Arena::device(fake_device_interface(), capacity, options);
        // The arena's own memory, a default-path allocation, is not under test.
        harena_test::reset_fake_driver();
        harena_override_reset_counters();
        return arena;
    }

    static bool in(const harena::Arena &arena, const halide_buffer_t &buf) {
        return buf.device >= arena.base() && buf.device < arena.base() + arena.capacity();
    }

    static harena_override_counters counters() {
        harena_override_counters c;
        harena_override_get_counters(&c);
        return c;
    }
};

}  // namespace

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

TEST_F(Override, DeviceAndHostTakesHostFromHalideMallocAndDeviceFromTheArena) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf b(300);
    ASSERT_EQ(halide_device_and_host_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_TRUE(in(arena, b.buf));
    ASSERT_NE(b.buf.host, nullptr);
    std::memset(b.buf.host, 7, b.bytes());
    b.buf.set_device_dirty(true);
    ASSERT_EQ(halide_device_and_host_free(nullptr, &b.buf), 0);
    EXPECT_EQ(b.buf.host, nullptr);
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_FALSE(b.buf.device_dirty());
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
    EXPECT_EQ(fake_driver().mallocs + fake_driver().frees + fake_driver().foreign_frees, 0);
}

TEST_F(Override, HalidesDestructorsAndCopiesGoThroughTheOverride) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf a(100), b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, fake_device_interface()), 0);
    ASSERT_EQ(halide_device_and_host_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    // The weak runtime's *_as_destructor call the public symbols, i.e. these.
    halide_device_and_host_free_as_destructor(nullptr, &b.buf);
    halide_device_free_as_destructor(nullptr, &a.buf);
    EXPECT_EQ(a.buf.device, 0u);
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_EQ(counters().device_arena_frees, 2u);

    // halide_copy_to_device allocates through halide_device_malloc too.
    Halide::Runtime::Buffer<float> data(256);
    for (int i = 0; i < 256; i++) {
        data(i) = static_cast<float>(i) * 0.5f;
    }
    data.set_host_dirty();
    ASSERT_EQ(data.copy_to_device(fake_device_interface()), 0);
    EXPECT_TRUE(in(arena, *data.raw_buffer()));
    std::memset(data.data(), 0, 256 * sizeof(float));
    data.set_device_dirty();
    ASSERT_EQ(data.copy_to_host(), 0);
    EXPECT_EQ(data(255), 127.5f);
    ASSERT_EQ(data.device_free(), 0);
    EXPECT_EQ(fake_driver().mallocs + fake_driver().frees + fake_driver().foreign_frees, 0);
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

TEST_F(Override, BufferChecksMatchHalides) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    testing::internal::CaptureStderr();
    EXPECT_EQ(halide_device_malloc(nullptr, nullptr, fake_device_interface()), halide_error_code_buffer_is_null);
    Buf no_interface(10);
    no_interface.buf.device = 1234;
    EXPECT_EQ(halide_device_malloc(nullptr, &no_interface.buf, fake_device_interface()),
              halide_error_code_no_device_interface);
    Buf other(10);
    const halide_device_interface_t other_interface{};
    other.buf.device = 1234;
    other.buf.device_interface = &other_interface;
    EXPECT_EQ(halide_device_malloc(nullptr, &other.buf, fake_device_interface()),
              halide_error_code_incompatible_device_interface);
    EXPECT_EQ(halide_device_and_host_malloc(nullptr, &other.buf, fake_device_interface()),
              halide_error_code_incompatible_device_interface);
    Buf dirty(10);
    dirty.buf.set_host_dirty(true);
    dirty.buf.set_device_dirty(true);
    EXPECT_EQ(halide_device_malloc(nullptr, &dirty.buf, fake_device_interface()),
              halide_error_code_host_and_device_dirty);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_EQ(arena.stats().allocations, 0u);
}

TEST_F(Override, APlannedPipelinesFrameRoutesItsUnplannedAllocations) {
    harena::Arena arena = device_arena(1 << 20);
    ASSERT_EQ(harena_pipeline_enter(arena.get(), "p", fake_device_interface(), 4096, 4096, 0), HARENA_OK);
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

TEST_F(Override, ABoundBufferHoldsTheModuleReferencesHalidesWrapTakes) {
    // What Halide's generic entry points take and drop for foreign memory.
    alignas(256) static unsigned char memory[4096];
    Buf reference(100);
    ASSERT_EQ(halide_device_wrap_native(nullptr, &reference.buf, reinterpret_cast<uint64_t>(memory),
                                        fake_device_interface()),
              0);
    const int wrap_uses = fake_driver().module_uses, wrap_releases = fake_driver().module_releases;
    ASSERT_EQ(halide_device_detach_native(nullptr, &reference.buf), 0);
    const int detach_uses = fake_driver().module_uses - wrap_uses;
    const int detach_releases = fake_driver().module_releases - wrap_releases;
    ASSERT_EQ(wrap_uses - wrap_releases, 1);  // the bound buffer's reference
    harena_test::reset_fake_driver();

    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf a(100), b(200);
    ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, fake_device_interface()), 0);
    ASSERT_EQ(halide_device_and_host_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    EXPECT_EQ(fake_driver().module_uses, 2 * wrap_uses);
    EXPECT_EQ(fake_driver().module_releases, 2 * wrap_releases);
    ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);
    ASSERT_EQ(halide_device_and_host_free(nullptr, &b.buf), 0);
    EXPECT_EQ(fake_driver().module_uses, 2 * (wrap_uses + detach_uses));
    EXPECT_EQ(fake_driver().module_releases, 2 * (wrap_releases + detach_releases));
    EXPECT_EQ(fake_driver().module_uses, fake_driver().module_releases);
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

TEST_F(Override, AnInterfaceWithItsOwnWrapNativeKeepsIt) {
    const halide_device_interface_t *own = harena_test::fake_device_interface_with_own_wrap();
    alignas(256) static unsigned char memory[1 << 16];
    harena::Arena arena = harena::Arena::wrap(own, reinterpret_cast<uint64_t>(memory), sizeof(memory));
    // An outer scope of another interface does not take the request.
    harena::Arena other = device_arena(1 << 20);
    harena::Scope other_scope(other);
    harena::Scope scope(arena);
    Buf b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, own), 0);
    EXPECT_TRUE(in(arena, b.buf));
    EXPECT_EQ(b.buf.device_interface, own);
    EXPECT_EQ(fake_driver().own_wraps, 1);
    EXPECT_EQ(fake_driver().wraps, 1);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_EQ(fake_driver().own_detaches, 1);
    EXPECT_EQ(fake_driver().detaches, 1);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
    EXPECT_EQ(other.stats().allocations, 0u);
    EXPECT_EQ(fake_driver().module_uses, fake_driver().module_releases);
}

TEST_F(Override, AFailedBindGivesTheBytesBack) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf a(100), b(100);
    testing::internal::CaptureStderr();
    fake_driver().fail_next_wrap = true;
    EXPECT_EQ(halide_device_malloc(nullptr, &a.buf, fake_device_interface()), halide_error_code_device_malloc_failed);
    fake_driver().fail_next_wrap = true;
    EXPECT_EQ(halide_device_and_host_malloc(nullptr, &b.buf, fake_device_interface()),
              halide_error_code_device_malloc_failed);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_EQ(a.buf.device, 0u);
    EXPECT_EQ(b.buf.device, 0u);
    EXPECT_EQ(b.buf.host, nullptr);  // the host half is freed again
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
    EXPECT_EQ(arena.stats().reclaimed, 2u);
    EXPECT_EQ(counters().device_arena_allocations, 0u);
    EXPECT_EQ(fake_driver().mallocs, 0);
    EXPECT_EQ(fake_driver().module_uses, fake_driver().module_releases);
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

TEST_F(Override, FreeKeepsHalidesBufferChecks) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    testing::internal::CaptureStderr();
    EXPECT_EQ(halide_device_free(nullptr, nullptr), halide_error_code_buffer_is_null);
    b.buf.set_host_dirty(true);
    b.buf.set_device_dirty(true);
    EXPECT_EQ(halide_device_free(nullptr, &b.buf), halide_error_code_host_and_device_dirty);
    b.buf.set_host_dirty(false);
    const halide_device_interface_t *iface = b.buf.device_interface;
    b.buf.device_interface = nullptr;
    EXPECT_EQ(halide_device_free(nullptr, &b.buf), halide_error_code_no_device_interface);
    b.buf.device_interface = iface;
    (void)testing::internal::GetCapturedStderr();
    EXPECT_EQ(counters().device_arena_frees, 0u);
    EXPECT_NE(b.buf.device, 0u);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    EXPECT_EQ(counters().device_arena_frees, 1u);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
}

TEST_F(Override, TheArenaTakesExactlyHalidesSizeInBytesForEveryLayout) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    struct Layout {
        const char *what;
        std::vector<halide_dimension_t> dims;
    };
    const Layout layouts[] = {
        {"dense", {{0, 77, 1, 0}, {0, 3, 77, 0}}},
        {"padded rows", {{0, 77, 1, 0}, {0, 3, 80, 0}}},
        {"planar, channels outermost", {{0, 10, 1, 0}, {0, 7, 10, 0}, {0, 3, 70, 0}}},
        {"interleaved, channels innermost", {{0, 10, 3, 0}, {0, 7, 30, 0}, {0, 3, 1, 0}}},
        {"broadcast dimension", {{0, 64, 1, 0}, {0, 9, 0, 0}}},
        {"extent 1 and a scalar", {{0, 1, 5, 0}, {0, 1, 1, 0}}},
        {"no dimensions", {}},
    };
    for (const Layout &l : layouts) {
        std::vector<halide_dimension_t> dims = l.dims;
        halide_buffer_t buf{};
        buf.type = halide_type_of<uint16_t>();
        buf.dimensions = static_cast<int>(dims.size());
        buf.dim = dims.data();
        ASSERT_EQ(halide_device_malloc(nullptr, &buf, fake_device_interface()), 0) << l.what;
        EXPECT_TRUE(in(arena, buf)) << l.what;
        EXPECT_EQ(arena.stats().bytes_in_use, (buf.size_in_bytes() + 255) / 256 * 256) << l.what;
        ASSERT_EQ(halide_device_free(nullptr, &buf), 0) << l.what;
        EXPECT_EQ(arena.stats().bytes_in_use, 0u) << l.what;  // the free computed the same size
    }
    EXPECT_EQ(fake_driver().mallocs, 0);
}

TEST_F(Override, ABufferWithANegativeStrideKeepsHalidesPath) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    for (int extent : {1, 8}) {
        halide_dimension_t dims[2] = {{0, 8, 1, 0}, {0, extent, -8, 0}};
        halide_buffer_t buf{};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dims;
        ASSERT_EQ(halide_device_malloc(nullptr, &buf, fake_device_interface()), 0);
        EXPECT_FALSE(in(arena, buf));
        ASSERT_EQ(halide_device_free(nullptr, &buf), 0);
    }
    EXPECT_EQ(fake_driver().mallocs, 2);
    EXPECT_EQ(fake_driver().frees, 2);
    EXPECT_EQ(arena.stats().allocations, 0u);
    EXPECT_EQ(counters().device_default_allocations, 2u);
}
