// A device arena's host companion (harena/runtime.h): the host memory a
// planned GPU pipeline's host-only buffers lie in, entered as the generated
// code enters it (harena_pipeline_enter, then harena_pipeline_host_enter).
#include "host_arena.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using harena_test::dummy_interface;
using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

// A device arena over memory the test owns (dummy_interface: never
// dereferenced), which cannot grow.
struct WrappedDeviceArena {
    explicit WrappedDeviceArena(uint64_t bytes = 1 << 16)
        : memory(static_cast<char *>(std::aligned_alloc(256, bytes)), std::free) {
        EXPECT_EQ(harena_create_from_memory(dummy_interface(), reinterpret_cast<uint64_t>(memory.get()), bytes,
                                            nullptr, &arena),
                  HARENA_OK)
            << harena_last_error();
    }
    ~WrappedDeviceArena() {
        EXPECT_EQ(harena_destroy(arena), HARENA_OK) << harena_last_error();
    }
    std::unique_ptr<char, decltype(&std::free)> memory;
    harena_arena *arena = nullptr;
};

harena_stats companion_stats(const harena_arena *arena) {
    harena_stats s{};
    EXPECT_EQ(harena_get_host_companion_stats(arena, &s), HARENA_OK) << harena_last_error();
    return s;
}

// The device frame and the host frame of one planned call, as its code
// opens them; the host frame's base, or 0 where the host entry failed.
uint64_t enter_both(harena_arena *arena, const halide_device_interface_t *device, uint64_t host_bytes,
                    uint64_t host_worst_case, int *host_status = nullptr) {
    EXPECT_EQ(harena_pipeline_enter(arena, "auto_levels", device, 1024, 1024, 0, 256), HARENA_OK)
        << harena_last_error();
    const int status = harena_pipeline_host_enter(arena, "auto_levels", "cdf", host_bytes, host_worst_case);
    if (host_status != nullptr) {
        *host_status = status;
    } else {
        EXPECT_EQ(status, HARENA_OK) << harena_last_error();
    }
    return status == HARENA_OK ? harena_pipeline_host_base(arena) : 0;
}

void exit_both(harena_arena *arena, uint64_t host_base) {
    if (host_base != 0) {
        harena_pipeline_host_exit_as_destructor(arena, reinterpret_cast<void *>(host_base));
    }
    harena_pipeline_exit_as_destructor(arena, reinterpret_cast<void *>(harena_pipeline_base(arena)));
}

}  // namespace

TEST(HostCompanion, IsCreatedByTheFirstCallThatNeedsHostBytesAtItsWorstCase) {
    WrappedDeviceArena d;
    EXPECT_EQ(companion_stats(d.arena).capacity, 0u);
    const uint64_t base = enter_both(d.arena, dummy_interface(), 3000, 5000);
    ASSERT_NE(base, 0u);
    EXPECT_EQ(base % 256, 0u);
    // Host memory the CPU stage writes and reads.
    std::memset(reinterpret_cast<void *>(base), 0x5a, 3000);
    harena_stats s = companion_stats(d.arena);
    EXPECT_EQ(s.capacity, 5120u);
    EXPECT_EQ(s.bytes_in_use, 3072u);
    EXPECT_EQ(s.frame_depth, 1u);
    // Neither registered nor active: no lookup or host heap hook finds it.
    EXPECT_EQ(harena_find(nullptr, base), nullptr);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    exit_both(d.arena, base);
    s = companion_stats(d.arena);
    EXPECT_EQ(s.frame_depth, 0u);
    EXPECT_EQ(s.bytes_in_use, 0u);
    EXPECT_EQ(s.high_water, 3072u);
    EXPECT_EQ(s.frames_pushed, 1u);
}

TEST(HostCompanion, ACallWithoutAWorstCaseCreatesItAtItsOwnBytes) {
    WrappedDeviceArena d;
    exit_both(d.arena, enter_both(d.arena, dummy_interface(), 700, 0));
    EXPECT_EQ(companion_stats(d.arena).capacity, 768u);
}

// Frames of nested planned calls stack, and each call finds the same bytes.
TEST(HostCompanion, FramesOfNestedCallsStackAndComeBack) {
    WrappedDeviceArena d;
    ASSERT_EQ(harena_reserve_host_companion(d.arena, 1 << 14), HARENA_OK) << harena_last_error();
    for (int call = 0; call < 3; call++) {
        const uint64_t outer = enter_both(d.arena, dummy_interface(), 1000, 1000);
        const uint64_t inner = enter_both(d.arena, dummy_interface(), 256, 256);
        EXPECT_EQ(inner, outer + 1024);
        exit_both(d.arena, inner);
        EXPECT_EQ(harena_pipeline_host_base(d.arena), outer);
        exit_both(d.arena, outer);
    }
    const harena_stats s = companion_stats(d.arena);
    EXPECT_EQ(s.capacity, uint64_t(1) << 14);
    EXPECT_EQ(s.max_frame_depth, 2u);
    EXPECT_EQ(s.frames_pushed, 6u);
}

// A call inside another planned call cannot grow the companion.
TEST(HostCompanion, TooSmallNamesThePipelineTheBuffersAndTheBytesAndChangesNothing) {
    WrappedDeviceArena d;
    ASSERT_EQ(harena_reserve_host_companion(d.arena, 1024), HARENA_OK);
    const uint64_t outer = enter_both(d.arena, dummy_interface(), 512, 512);
    int status = 0;
    EXPECT_EQ(enter_both(d.arena, dummy_interface(), 4000, 0, &status), 0u);
    EXPECT_EQ(status, HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"pipeline 'auto_levels'", "host buffers (cdf)", "needs 4000 bytes",
                                     "has 512 bytes", "of 1024 bytes", "1 enclosing frame(s)", "at least 4608 bytes",
                                     "harena_reserve_host_companion"}));
    harena_stats s = companion_stats(d.arena);
    EXPECT_EQ(s.capacity, 1024u);
    EXPECT_EQ(s.frame_depth, 1u);
    EXPECT_EQ(s.bytes_in_use, 512u);
    EXPECT_EQ(s.overflows, 1u);
    // The inner call's device frame is still its own to pop, as on any error path.
    exit_both(d.arena, 0);
    EXPECT_EQ(harena_pipeline_host_base(d.arena), outer);
    exit_both(d.arena, outer);
    harena_stats device{};
    ASSERT_EQ(harena_get_stats(d.arena, &device), HARENA_OK);
    EXPECT_EQ(device.frame_depth, 0u);
    EXPECT_EQ(companion_stats(d.arena).frame_depth, 0u);
}

// Nothing outside a call holds its addresses, so it grows between calls even
// where its arena cannot (memory the caller owns).
TEST(HostCompanion, GrowsBetweenCallsWhateverItsArenasOptions) {
    WrappedDeviceArena d;
    exit_both(d.arena, enter_both(d.arena, dummy_interface(), 1000, 0));
    EXPECT_EQ(companion_stats(d.arena).capacity, 1024u);
    const uint64_t base = enter_both(d.arena, dummy_interface(), 10000, 0);
    ASSERT_NE(base, 0u);
    std::memset(reinterpret_cast<void *>(base), 0, 10000);
    exit_both(d.arena, base);
    const harena_stats s = companion_stats(d.arena);
    EXPECT_EQ(s.capacity, 10240u);
    EXPECT_EQ(s.grows, 1u);
    EXPECT_EQ(s.high_water, 10240u);
}

TEST(HostCompanion, AReservedCompanionDoesNotGrowForCallsThatFit) {
    WrappedDeviceArena d;
    ASSERT_EQ(harena_reserve_host_companion(d.arena, 1 << 16), HARENA_OK);
    for (uint64_t bytes : {1000u, 60000u, 3000u}) {
        exit_both(d.arena, enter_both(d.arena, dummy_interface(), bytes, 0));
    }
    EXPECT_EQ(companion_stats(d.arena).capacity, uint64_t(1) << 16);
    EXPECT_EQ(companion_stats(d.arena).grows, 0u);
    // A smaller reservation keeps what is there; a larger one replaces it between calls.
    ASSERT_EQ(harena_reserve_host_companion(d.arena, 1024), HARENA_OK);
    EXPECT_EQ(companion_stats(d.arena).capacity, uint64_t(1) << 16);
    ASSERT_EQ(harena_reserve_host_companion(d.arena, 1 << 17), HARENA_OK);
    EXPECT_EQ(companion_stats(d.arena).capacity, uint64_t(1) << 17);
}

TEST(HostCompanion, IsNotResizedWhileACallIsInside) {
    WrappedDeviceArena d;
    const uint64_t base = enter_both(d.arena, dummy_interface(), 512, 512);
    EXPECT_EQ(harena_reserve_host_companion(d.arena, 1 << 20), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(last_error_mentions({"1 frame(s) pushed", "resize it between runs"}));
    EXPECT_EQ(companion_stats(d.arena).capacity, 512u);
    exit_both(d.arena, base);
}

TEST(HostCompanion, IsEnteredOnlyAfterItsDeviceArena) {
    WrappedDeviceArena d;
    EXPECT_EQ(harena_pipeline_host_enter(d.arena, "auto_levels", "cdf", 100, 100), HARENA_ERROR_NO_FRAME);
    EXPECT_TRUE(last_error_mentions({"pipeline 'auto_levels'", "harena_pipeline_enter", "before its host companion"}));
    EXPECT_EQ(companion_stats(d.arena).capacity, 0u);
    EXPECT_EQ(harena_pipeline_host_base(d.arena), 0u);
    EXPECT_TRUE(last_error_mentions({"no frame pushed by harena_pipeline_host_enter"}));
}

TEST(HostCompanion, AnExitThatIsNotTheTopFramePopsNothing) {
    WrappedDeviceArena d;
    const uint64_t base = enter_both(d.arena, dummy_interface(), 512, 512);
    harena_pipeline_host_exit_as_destructor(d.arena, reinterpret_cast<void *>(base + 256));
    EXPECT_TRUE(last_error_mentions({"is not the top frame of the host companion"}));
    EXPECT_EQ(companion_stats(d.arena).frame_depth, 1u);
    exit_both(d.arena, base);
}

TEST(HostCompanion, HostArenasHaveNone) {
    HostArena h(4096);
    EXPECT_EQ(harena_reserve_host_companion(h.arena, 1024), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"only a device arena has a host companion"}));
    ASSERT_EQ(harena_pipeline_enter(h.arena, "p", nullptr, 256, 256, 0, 256), HARENA_OK);
    EXPECT_EQ(harena_pipeline_host_enter(h.arena, "p", "t", 100, 100), HARENA_ERROR_NO_FRAME);
    harena_pipeline_exit_as_destructor(h.arena, reinterpret_cast<void *>(harena_pipeline_base(h.arena)));
}

TEST(HostCompanion, TheArenaIsNotDestroyedWhileACompanionFrameIsPushed) {
    WrappedDeviceArena d;
    const uint64_t base = enter_both(d.arena, dummy_interface(), 512, 512);
    harena_pipeline_exit_as_destructor(d.arena, reinterpret_cast<void *>(harena_pipeline_base(d.arena)));
    EXPECT_EQ(harena_destroy(d.arena), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(last_error_mentions({"host companion", "still has a planned pipeline's frame"}));
    harena_pipeline_host_exit_as_destructor(d.arena, reinterpret_cast<void *>(base));
}

TEST(HostCompanion, StatisticsShowItAndResetWithTheArena) {
    WrappedDeviceArena d;
    exit_both(d.arena, enter_both(d.arena, dummy_interface(), 3000, 3000));
    char text[1024];
    ASSERT_GT(harena_format_stats(d.arena, text, sizeof text), 0);
    EXPECT_NE(std::string(text).find("host companion 3072 bytes (3.00 KiB), high water 3072 bytes"),
              std::string::npos)
        << text;
    ASSERT_EQ(harena_reset_stats(d.arena), HARENA_OK);
    EXPECT_EQ(companion_stats(d.arena).high_water, 0u);
    EXPECT_EQ(companion_stats(d.arena).frames_pushed, 0u);
}

// Its arena's contract: an arena per thread, each with its own companion,
// created, grown and entered with no lock shared between them.
TEST(HostCompanion, ArenasOfDifferentThreadsHaveIndependentCompanions) {
    constexpr int kThreads = 4, kCalls = 200;
    std::vector<harena_stats> seen(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([t, &seen] {
            WrappedDeviceArena d;
            for (int call = 0; call < kCalls; call++) {
                const uint64_t bytes = 256 * (1 + (call * 7 + t) % 64);
                const uint64_t base = enter_both(d.arena, dummy_interface(), bytes, 0);
                std::memset(reinterpret_cast<void *>(base), t, bytes);
                exit_both(d.arena, base);
            }
            seen[t] = companion_stats(d.arena);
        });
    }
    for (std::thread &thread : threads) {
        thread.join();
    }
    for (const harena_stats &s : seen) {
        EXPECT_EQ(s.frames_pushed, uint64_t(kCalls));
        EXPECT_EQ(s.frame_depth, 0u);
        EXPECT_EQ(s.high_water, 256u * 64);
    }
}
