// The override's bookkeeping of each buffer: Halide's checks, sizes and
// layouts kept, device-and-host allocations, destructors and copies, and
// buffers bound to arena memory (wraps, module references, failed binds), on
// the fake device of override_fixture.h.
#include <cstring>
#include <vector>

#include "HalideBuffer.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "host_arena.h"
#include "override_fixture.h"

// Halide's runtime defines these; its public header does not declare them.
extern "C" void halide_device_free_as_destructor(void *user_context, void *obj);
extern "C" void halide_device_and_host_free_as_destructor(void *user_context, void *obj);

using harena_test::Buf;
using harena_test::fake_device_interface;
using harena_test::fake_driver;
using harena_test::last_error_mentions;
using harena_test::Override;

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

// Halide's destructors free every device buffer again once the pipeline has
// freed it: such a free has nothing to give back and, as Halide's generic
// free, only clears the device-dirty bit.
TEST_F(Override, AFreeOfABufferWithoutDeviceMemoryOnlyClearsItsDeviceDirtyBit) {
    harena::Arena arena = device_arena(1 << 20);
    harena::Scope scope(arena);
    Buf b(100);
    ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
    ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    const uint64_t in_use = arena.stats().bytes_in_use;
    for (bool dirty : {true, false}) {
        b.buf.set_device_dirty(dirty);
        halide_device_free_as_destructor(nullptr, &b.buf);
        EXPECT_FALSE(b.buf.device_dirty());
        EXPECT_EQ(b.buf.device, 0u);
        EXPECT_EQ(b.buf.device_interface, nullptr);
    }
    EXPECT_EQ(arena.stats().bytes_in_use, in_use);
    EXPECT_EQ(counters().device_arena_frees, 1u);
    EXPECT_EQ(counters().device_default_frees, 0u);
    EXPECT_EQ(fake_driver().frees + fake_driver().foreign_frees, 0);
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
