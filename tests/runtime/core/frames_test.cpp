#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(Frames, PopReleasesEverythingSincePush) {
    HostArena a(1 << 20);
    harena_frame outer = a.push();
    a.alloc(1000);
    const uint64_t before = a.stats().bytes_in_use;
    harena_frame inner = a.push();
    a.alloc(300);
    a.alloc(5000);
    EXPECT_GT(a.stats().bytes_in_use, before);
    EXPECT_EQ(harena_pop(a.arena, inner), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, before);
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Frames, NestedFramesStartWhereTheOuterFrameReached) {
    HostArena a(1 << 20);
    harena_frame f1 = a.push();
    const uint64_t x = a.alloc(256);
    harena_frame f2 = a.push();
    EXPECT_EQ(f2.base, x + 256);
    const uint64_t y = a.alloc(10);
    EXPECT_EQ(y, f2.base);
    harena_frame f3 = a.push();
    EXPECT_EQ(a.stats().frame_depth, 3u);
    EXPECT_EQ(harena_pop(a.arena, f3), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f2), HARENA_OK);
    // Space of the popped frames is reused by the next allocation.
    EXPECT_EQ(a.alloc(10), x + 256);
    EXPECT_EQ(harena_pop(a.arena, f1), HARENA_OK);
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(Frames, ReservationComesFirstAndAllocationsFollowIt) {
    HostArena a(1 << 20);
    harena_frame f = a.push(1000);
    EXPECT_EQ(f.base, a.base());
    EXPECT_EQ(a.stats().bytes_in_use, 1024u);  // rounded to the 256-byte alignment
    EXPECT_EQ(a.alloc(1), f.base + 1024);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Frames, RepeatedPushPopReusesTheSameAddresses) {
    HostArena a(1 << 16);
    uint64_t first = 0;
    for (int i = 0; i < 1000; i++) {
        harena_frame f = a.push();
        const uint64_t p = a.alloc(4000);
        if (i == 0) {
            first = p;
        }
        EXPECT_EQ(p, first);
        EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    }
    EXPECT_EQ(a.stats().frames_pushed, 1000u);
}

TEST(Frames, FrameIdsAreUnique) {
    HostArena a(1 << 16);
    harena_frame f1 = a.push();
    ASSERT_EQ(harena_pop(a.arena, f1), HARENA_OK);
    harena_frame f2 = a.push();
    EXPECT_NE(f1.id, f2.id);
    // A stale handle for the same depth is refused rather than popping f2.
    EXPECT_EQ(harena_pop(a.arena, f1), HARENA_ERROR_FRAME_NOT_TOP);
    EXPECT_EQ(harena_pop(a.arena, f2), HARENA_OK);
}

TEST(Frames, PopOfANonTopFrameIsRefused) {
    HostArena a(1 << 16);
    harena_frame outer = a.push();
    harena_frame inner = a.push();
    a.alloc(100);
    const uint64_t in_use = a.stats().bytes_in_use;
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_ERROR_FRAME_NOT_TOP);
    EXPECT_TRUE(last_error_mentions({"not the top frame", "reverse order"}));
    EXPECT_EQ(a.stats().bytes_in_use, in_use);
    EXPECT_EQ(a.stats().frame_depth, 2u);
    EXPECT_EQ(harena_pop(a.arena, inner), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_OK);
}

TEST(Frames, PopOfAnEmptyStackIsRefused) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    ASSERT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_FRAME_STACK_EMPTY);
    EXPECT_TRUE(last_error_mentions({"no frame to pop"}));
}

TEST(Frames, StackDepthIsBounded) {
    harena_options o = HostArena::defaults();
    o.max_frames = 3;
    HostArena a(1 << 16, o);
    harena_frame f[3];
    for (auto &frame : f) {
        frame = a.push();
    }
    harena_frame extra{};
    EXPECT_EQ(harena_push(a.arena, 0, &extra), HARENA_ERROR_FRAME_STACK_FULL);
    EXPECT_TRUE(last_error_mentions({"max_frames"}));
    for (int i = 2; i >= 0; i--) {
        EXPECT_EQ(harena_pop(a.arena, f[i]), HARENA_OK);
    }
}

TEST(Frames, PushThatDoesNotFitIsRefused) {
    HostArena a(4096);
    harena_frame f = a.push(1024);
    harena_frame g{};
    EXPECT_EQ(harena_push(a.arena, 8192, &g), HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"cannot reserve 8192 bytes", "3072 bytes", "4096 bytes"}));
    EXPECT_EQ(a.stats().frame_depth, 1u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}
