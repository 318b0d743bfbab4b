// Buffers that outlive their scope: a pipeline's input that halide_copy_to_device
// uploaded in the scope, an output whose device memory it allocated there.
// When the frame pops they must leave it with their contents, and later calls
// must find them where Halide's default allocator would have put them. The
// device is fake_device.h's, whose device memory is host memory, so the tests
// read device contents directly.
#include <cstring>
#include <thread>
#include <vector>

#include "fake_device.h"
#include "harena/arena.hpp"
#include "harena/override.h"
#include "host_arena.h"

using harena_test::fake_device_interface;
using harena_test::fake_driver;
using harena_test::last_error_mentions;

namespace {

// A dense float buffer with host memory, as a caller passes an input or output.
struct HostBuf {
    explicit HostBuf(int extent0, int extent1 = 1)
        : values(static_cast<size_t>(extent0) * extent1) {
        dim[0] = halide_dimension_t{0, extent0, 1, 0};
        dim[1] = halide_dimension_t{0, extent1, extent0, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dim;
        buf.host = reinterpret_cast<uint8_t *>(values.data());
    }
    // New contents, as a caller writes them before the next call.
    void write(float first) {
        for (size_t i = 0; i < values.size(); i++) {
            values[i] = first + static_cast<float>(i);
        }
        buf.set_host_dirty(true);
    }
    const float *device_values() const {
        return reinterpret_cast<const float *>(buf.device);
    }
    bool device_holds(float first) const {
        for (size_t i = 0; i < values.size(); i++) {
            if (device_values()[i] != first + static_cast<float>(i)) {
                return false;
            }
        }
        return true;
    }
    std::vector<float> values;
    halide_dimension_t dim[2];
    halide_buffer_t buf{};
};

// An intermediate: device only, allocated and freed inside one call.
struct Intermediate : HostBuf {
    explicit Intermediate(int extent0, int extent1 = 1)
        : HostBuf(extent0, extent1) {
        buf.host = nullptr;
    }
    void scribble() {
        std::memset(reinterpret_cast<void *>(buf.device), 0xA5, buf.size_in_bytes());
    }
};

class Eviction : public ::testing::Test {
protected:
    explicit Eviction(const harena::Options &options = {}, uint64_t capacity = 1 << 20)
        : arena(harena::Arena::device(fake_device_interface(), capacity, options)) {
    }

    // The arena's own memory, a default-path allocation, is not under test.
    void SetUp() override {
        harena_test::reset_fake_driver();
        harena_override_reset_counters();
    }

    bool in_arena(const halide_buffer_t &buf) const {
        return buf.device >= arena.base() && buf.device < arena.base() + arena.capacity();
    }
    static harena_override_counters counters() {
        harena_override_counters c;
        harena_override_get_counters(&c);
        return c;
    }

    // One call of a pipeline that reads `input` and writes `output` through
    // one intermediate, as Halide's generated code does it in a scope: the
    // intermediate takes the slice the input had in the previous call's frame.
    void call(HostBuf &input, HostBuf &output, float first) {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_copy_to_device(nullptr, &input.buf, fake_device_interface()), 0);
        Intermediate tmp(static_cast<int>(input.values.size()));
        ASSERT_EQ(halide_device_malloc(nullptr, &tmp.buf, fake_device_interface()), 0);
        tmp.scribble();
        ASSERT_TRUE(input.device_holds(first)) << "the input's device copy was overwritten";
        ASSERT_EQ(halide_device_malloc(nullptr, &output.buf, fake_device_interface()), 0);
        std::memcpy(reinterpret_cast<void *>(output.buf.device), input.device_values(), input.buf.size_in_bytes());
        output.buf.set_device_dirty(true);
        ASSERT_EQ(halide_device_free(nullptr, &tmp.buf), 0);
    }

    harena::Arena arena;
};

}  // namespace

TEST_F(Eviction, AnInputUploadedInAScopeKeepsItsContentsWhenTheFramePops) {
    HostBuf input(64, 4);
    input.write(1.0f);
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_copy_to_device(nullptr, &input.buf, fake_device_interface()), 0);
        EXPECT_TRUE(in_arena(input.buf));
    }
    EXPECT_FALSE(in_arena(input.buf));
    EXPECT_EQ(input.buf.device_interface, fake_device_interface());
    EXPECT_TRUE(input.device_holds(1.0f));
    EXPECT_FALSE(input.buf.host_dirty());
    EXPECT_EQ(arena.stats().evictions, 1u);
    EXPECT_EQ(arena.stats().evicted_bytes, input.buf.size_in_bytes());
    EXPECT_EQ(fake_driver().mallocs, 1);
    EXPECT_EQ(fake_driver().device_copies, 1);
    // Freed later, outside any scope, as Halide's default would free it.
    ASSERT_EQ(halide_device_free(nullptr, &input.buf), 0);
    EXPECT_EQ(fake_driver().frees, 1);
    EXPECT_EQ(fake_driver().foreign_frees, 0);
}

TEST_F(Eviction, RepeatedCallsOnTheSameBuffersSeeTheirOwnDataOnEveryCall) {
    HostBuf input(256), output(256);
    for (int run = 0; run < 4; run++) {
        const float first = 100.0f * static_cast<float>(run);
        input.write(first);
        call(input, output, first);
        ASSERT_FALSE(in_arena(input.buf));
        ASSERT_FALSE(in_arena(output.buf));
        ASSERT_TRUE(output.buf.device_dirty());
        ASSERT_EQ(halide_copy_to_host(nullptr, &output.buf), 0);
        for (size_t i = 0; i < output.values.size(); i++) {
            ASSERT_EQ(output.values[i], first + static_cast<float>(i)) << "run " << run << ", element " << i;
        }
    }
    // The two argument buffers leave the arena once; every call's
    // intermediate comes from the arena and never reaches the driver.
    EXPECT_EQ(arena.stats().evictions, 2u);
    EXPECT_EQ(fake_driver().mallocs, 2);
    EXPECT_EQ(counters().device_arena_allocations, 4u + 2u);
    EXPECT_EQ(counters().device_arena_frees, 4u);
    ASSERT_EQ(halide_device_free(nullptr, &input.buf), 0);
    ASSERT_EQ(halide_device_free(nullptr, &output.buf), 0);
    EXPECT_EQ(fake_driver().frees, 2);
    EXPECT_EQ(fake_driver().foreign_frees, 0);
}

TEST_F(Eviction, BuffersFreedInTheirScopeAreNotMoved) {
    {
        harena::Scope scope(arena);
        Intermediate a(100), b(300);
        ASSERT_EQ(halide_device_malloc(nullptr, &a.buf, fake_device_interface()), 0);
        ASSERT_EQ(halide_device_malloc(nullptr, &b.buf, fake_device_interface()), 0);
        ASSERT_EQ(halide_device_free(nullptr, &a.buf), 0);
        ASSERT_EQ(halide_device_free(nullptr, &b.buf), 0);
    }
    EXPECT_EQ(arena.stats().evictions, 0u);
    EXPECT_EQ(fake_driver().mallocs, 0);
}

TEST_F(Eviction, AnInnerScopeMovesOnlyWhatItsOwnFrameHandedOut) {
    harena::Scope outer(arena);
    HostBuf early(32), late(32);
    early.write(5.0f);
    late.write(7.0f);
    ASSERT_EQ(halide_copy_to_device(nullptr, &early.buf, fake_device_interface()), 0);
    {
        harena::Scope inner(arena);
        ASSERT_EQ(halide_copy_to_device(nullptr, &late.buf, fake_device_interface()), 0);
    }
    EXPECT_TRUE(in_arena(early.buf)) << "the outer frame has not popped";
    EXPECT_FALSE(in_arena(late.buf));
    EXPECT_TRUE(late.device_holds(7.0f));
    EXPECT_EQ(arena.stats().evictions, 1u);
    ASSERT_EQ(halide_device_free(nullptr, &early.buf), 0);
    ASSERT_EQ(halide_device_free(nullptr, &late.buf), 0);
}

TEST_F(Eviction, AFreeOfAnOuterFramesBufferDoesNotHideTheInnerFramesEntries) {
    harena::Scope outer(arena);
    Intermediate outer_tmp(64);
    ASSERT_EQ(halide_device_malloc(nullptr, &outer_tmp.buf, fake_device_interface()), 0);
    HostBuf kept(64);
    kept.write(3.0f);
    {
        harena::Scope inner(arena);
        ASSERT_EQ(halide_copy_to_device(nullptr, &kept.buf, fake_device_interface()), 0);
        // The outer buffer's entry lies below the inner frame's entries.
        ASSERT_EQ(halide_device_free(nullptr, &outer_tmp.buf), 0);
    }
    EXPECT_FALSE(in_arena(kept.buf));
    EXPECT_TRUE(kept.device_holds(3.0f));
    ASSERT_EQ(halide_device_free(nullptr, &kept.buf), 0);
}

TEST_F(Eviction, ALoopThatAllocatesAndFreesInOneScopeNeverFillsTheRecord) {
    harena::Scope scope(arena);
    for (int i = 0; i < 20000; i++) {
        Intermediate tmp(64);
        ASSERT_EQ(halide_device_malloc(nullptr, &tmp.buf, fake_device_interface()), 0);
        ASSERT_TRUE(in_arena(tmp.buf)) << "iteration " << i;
        ASSERT_EQ(halide_device_free(nullptr, &tmp.buf), 0);
    }
    EXPECT_EQ(arena.stats().fallbacks, 0u);
    EXPECT_EQ(fake_driver().mallocs, 0);
}

TEST_F(Eviction, AHostAndDeviceBufferKeepsItsHostPartAndLeavesTheArena) {
    HostBuf shape(16);
    halide_buffer_t buf = shape.buf;
    buf.host = nullptr;
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_device_and_host_malloc(nullptr, &buf, fake_device_interface()), 0);
        ASSERT_TRUE(in_arena(buf));
        std::memset(reinterpret_cast<void *>(buf.device), 0x3C, buf.size_in_bytes());
    }
    ASSERT_FALSE(in_arena(buf));
    ASSERT_NE(buf.host, nullptr);
    EXPECT_EQ(reinterpret_cast<const uint8_t *>(buf.device)[buf.size_in_bytes() - 1], 0x3C);
    ASSERT_EQ(halide_device_and_host_free(nullptr, &buf), 0);
    EXPECT_EQ(buf.host, nullptr);
    EXPECT_EQ(fake_driver().frees, 1);
}

TEST_F(Eviction, ABufferDetachedBeforeThePopIsLeftAlone) {
    HostBuf input(16);
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_device_malloc(nullptr, &input.buf, fake_device_interface()), 0);
        ASSERT_EQ(halide_device_detach_native(nullptr, &input.buf), 0);
    }
    EXPECT_EQ(input.buf.device, 0u);
    EXPECT_EQ(arena.stats().evictions, 0u);
    EXPECT_EQ(fake_driver().mallocs, 0);
}

TEST_F(Eviction, BuffersThreadsBoundInOneFrameAllLeaveIt) {
    constexpr int kThreads = 4, kPerThread = 50;
    std::vector<HostBuf> kept;
    kept.reserve(kThreads * kPerThread);
    for (int i = 0; i < kThreads * kPerThread; i++) {
        kept.emplace_back(8);
        kept.back().write(static_cast<float>(i));
    }
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            harena_scope attached;
            ASSERT_EQ(harena_scope_attach(&attached, arena.get()), HARENA_OK);
            for (int i = t * kPerThread; i < (t + 1) * kPerThread; i++) {
                Intermediate tmp(32);
                ASSERT_EQ(halide_device_malloc(nullptr, &tmp.buf, fake_device_interface()), 0);
                ASSERT_EQ(halide_copy_to_device(nullptr, &kept[i].buf, fake_device_interface()), 0);
                ASSERT_EQ(halide_device_free(nullptr, &tmp.buf), 0);
            }
            ASSERT_EQ(harena_scope_end(&attached), HARENA_OK);
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    ASSERT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(arena.stats().evictions, static_cast<uint64_t>(kThreads * kPerThread));
    for (int i = 0; i < kThreads * kPerThread; i++) {
        ASSERT_FALSE(in_arena(kept[i].buf));
        ASSERT_TRUE(kept[i].device_holds(static_cast<float>(i))) << "buffer " << i;
        ASSERT_EQ(halide_device_free(nullptr, &kept[i].buf), 0);
    }
}

namespace {

harena::Options debug_mode() {
    harena::Options o;
    o.debug = true;
    return o;
}

class EvictionInDebugMode : public Eviction {
protected:
    EvictionInDebugMode()
        : Eviction(debug_mode()) {
    }
};

// Room for more buffers than the record of bound slices holds.
class EvictionInALargeArena : public Eviction {
protected:
    EvictionInALargeArena()
        : Eviction({}, 4 << 20) {
    }
};

}  // namespace

TEST_F(EvictionInDebugMode, AMovedBufferIsNotAnErrorButAnUnfreedAllocationStillIs) {
    HostBuf input(64, 4);
    input.write(2.0f);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena.get()), HARENA_OK);
    ASSERT_EQ(halide_copy_to_device(nullptr, &input.buf, fake_device_interface()), 0);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK) << harena_last_error();
    EXPECT_TRUE(input.device_holds(2.0f));

    // Raw bytes have no buffer to move: those are still reported.
    harena_frame frame{};
    ASSERT_EQ(harena_push(arena.get(), 0, &frame), HARENA_OK);
    uint64_t address = 0;
    ASSERT_EQ(harena_alloc(arena.get(), 512, "scratch", &address), HARENA_OK);
    testing::internal::CaptureStderr();
    EXPECT_EQ(harena_pop(arena.get(), frame), HARENA_ERROR_ALIVE_AT_POP);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_TRUE(last_error_mentions({"'scratch'", "512 bytes", "still alive"}));
    ASSERT_EQ(halide_device_free(nullptr, &input.buf), 0);
}

TEST_F(EvictionInALargeArena, WhenTheRecordIsFullBuffersGoToTheDefaultAllocatorNotToAnUntrackedSlice) {
    std::vector<Intermediate> held;
    held.reserve(4200);
    {
        harena::Scope scope(arena);
        testing::internal::CaptureStdout();  // the one-time notice, through halide_print
        for (int i = 0; i < 4200; i++) {
            held.emplace_back(1);
            ASSERT_EQ(halide_device_malloc(nullptr, &held.back().buf, fake_device_interface()), 0);
        }
        const std::string notice = testing::internal::GetCapturedStdout();
        EXPECT_NE(notice.find("default allocator"), std::string::npos) << notice;
        EXPECT_GT(arena.stats().fallbacks, 0u);
        EXPECT_EQ(fake_driver().mallocs, static_cast<int>(arena.stats().fallbacks));
    }
    // Every buffer is out of the arena after the pop, whichever way it went.
    for (Intermediate &h : held) {
        ASSERT_FALSE(in_arena(h.buf));
        ASSERT_EQ(halide_device_free(nullptr, &h.buf), 0);
    }
    EXPECT_EQ(fake_driver().foreign_frees, 0);
}

TEST(EvictionAndGrowth, ABufferMovedOutOfAFrameStaysValidWhenTheArenaGrows) {
    harena::Options options;
    options.grow = true;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = harena::Arena::device(fake_device_interface(), 4096, options);
    harena_test::reset_fake_driver();
    HostBuf input(256);  // 1 KiB
    input.write(4.0f);
    {
        harena::Scope scope(arena);
        ASSERT_EQ(halide_copy_to_device(nullptr, &input.buf, fake_device_interface()), 0);
        Intermediate big(2048);              // 8 KiB: does not fit, falls back and asks for room
        testing::internal::CaptureStdout();  // the fallback's one-time notice
        ASSERT_EQ(halide_device_malloc(nullptr, &big.buf, fake_device_interface()), 0);
        (void)testing::internal::GetCapturedStdout();
        ASSERT_EQ(halide_device_free(nullptr, &big.buf), 0);
    }
    const uint64_t old_base = arena.base();
    {
        harena::Scope scope(arena);  // grows before the frame opens
        EXPECT_GE(arena.capacity(), 1024u + 8192u);
        Intermediate big(2048);
        ASSERT_EQ(halide_device_malloc(nullptr, &big.buf, fake_device_interface()), 0);
        EXPECT_GE(big.buf.device, arena.base());
        big.scribble();
        ASSERT_EQ(halide_device_free(nullptr, &big.buf), 0);
    }
    EXPECT_NE(arena.base(), old_base);
    EXPECT_EQ(arena.stats().grows, 1u);
    EXPECT_TRUE(input.device_holds(4.0f));
    // The driver saw three allocations (the fallback, the moved input, the
    // new region) and two frees (the fallback, the old region).
    EXPECT_EQ(fake_driver().mallocs, 3);
    EXPECT_EQ(fake_driver().frees, 2);
    EXPECT_EQ(fake_driver().foreign_frees, 0);
    ASSERT_EQ(halide_device_free(nullptr, &input.buf), 0);
}
