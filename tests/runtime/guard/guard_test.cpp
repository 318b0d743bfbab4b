// Guard mode on host arenas: bands after slices and at frame starts, checked
// at free, at reuse and at pop, with reports that name what was overrun.
#include <cstdlib>
#include <cstring>

#include "guard/state.h"
#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

harena_options guarded(uint32_t band = 256) {
    harena_options o = HostArena::defaults();
    o.guard = 1;
    o.guard_bytes = band;
    return o;
}

void write_byte(uint64_t address, uint8_t value = 0) {
    *reinterpret_cast<volatile uint8_t *>(address) = value;
}

}  // namespace

TEST(Guard, OffByDefaultAndSlicesStayAsBefore) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    EXPECT_EQ(f.base, a.base());
    const uint64_t p = a.alloc(100), q = a.alloc(100);
    EXPECT_EQ(q - p, 256u);
    write_byte(p + 100);  // past the bytes asked for, inside the slice: not checked
    EXPECT_EQ(harena_free(a.arena, q, 100), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(a.stats().guard_checks, 0u);
}

TEST(Guard, EachSliceIsFollowedByABandAndEachFrameStartsWithOne) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    EXPECT_EQ(f.base, a.base() + 256);
    const uint64_t p = a.alloc(100), q = a.alloc(100);
    EXPECT_EQ(p, a.base() + 256);
    EXPECT_EQ(q - p, 512u);  // 100 bytes and 256 of band, rounded to the alignment
    for (uint64_t i = 100; i < 512; i++) {
        EXPECT_EQ(*reinterpret_cast<const uint8_t *>(p + i), 0xA5) << i;
    }
    EXPECT_EQ(harena_free(a.arena, q, 100), HARENA_OK);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    const harena_stats s = a.stats();
    EXPECT_EQ(s.guard_checks, 3u);  // two slices and the frame's first band
    EXPECT_EQ(s.guard_damaged, 0u);
}

TEST(Guard, AWriteOneBytePastTheEndIsReportedAtFree) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    const uint64_t p = a.alloc(100, "blur_x");
    std::memset(reinterpret_cast<void *>(p), 1, 100);  // the buffer itself: fine
    write_byte(p + 100);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"'blur_x'", "wrote past the end", "1 byte(s)", "from 1 to 1 bytes past its end",
                                     "offset 256"}));
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);  // checked once, at the free
    EXPECT_EQ(a.stats().guard_damaged, 1u);
}

TEST(Guard, AWriteOneRowPastTheEndIsReportedAtPopWithItsExtent) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    // An 8 x 4 image of 4-byte elements: its fifth row starts at byte 128.
    const uint64_t p = a.alloc(8 * 4 * 4, "image");
    std::memset(reinterpret_cast<void *>(p + 128), 0, 8 * 4);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"'image'", "32 byte(s)", "from 1 to 32 bytes past its end"}));
}

TEST(Guard, AWriteBeforeAFramesFirstSliceIsReported) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    const uint64_t p = a.alloc(64);
    write_byte(p - 4);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"wrote before the first slice of frame #", "from 4 to 4 bytes before it"}));
}

TEST(Guard, AReservationHasABandToo) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push(1000);
    write_byte(f.base + 1000);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"the reservation of frame #", "from 1 to 1 bytes past its end"}));
}

TEST(Guard, BytesReusedAfterALastInFirstOutFreeAreNotMistakenForDamage) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    const uint64_t p = a.alloc(100);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    const uint64_t q = a.alloc(1000);
    EXPECT_EQ(q, p);
    std::memset(reinterpret_cast<void *>(q), 7, 1000);  // over p's old band
    EXPECT_EQ(harena_free(a.arena, q, 1000), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(a.stats().guard_damaged, 0u);
}

TEST(Guard, ANestedFramesBandsAreCheckedAtItsOwnPop) {
    HostArena a(1 << 16, guarded());
    harena_frame outer = a.push();
    const uint64_t p = a.alloc(10, "outer");
    harena_frame inner = a.push();
    const uint64_t q = a.alloc(10, "inner");
    write_byte(q + 10);
    EXPECT_EQ(harena_pop(a.arena, inner), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"'inner'"}));
    write_byte(p + 12);
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"'outer'", "from 3 to 3 bytes past its end"}));
}

TEST(Guard, TheBandIsRoundedUpToTheAlignment) {
    HostArena a(1 << 16, guarded(1));
    harena_frame f = a.push();
    const uint64_t p = a.alloc(256), q = a.alloc(256);
    EXPECT_EQ(q - p, 512u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Guard, ABandOfNoBytesIsRefused) {
    harena_options o = guarded(0);
    harena_arena *arena = nullptr;
    EXPECT_EQ(harena_create(nullptr, nullptr, 1 << 16, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"guard_bytes is 0"}));
}

TEST(Guard, TheEnvironmentSwitchesItOn) {
    ASSERT_EQ(setenv("HARENA_GUARD", "1", 1), 0);
    HostArena a(1 << 16);
    ASSERT_EQ(unsetenv("HARENA_GUARD"), 0);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(16);
    write_byte(p + 16);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_GUARD_DAMAGED);
}

// The entry points planned pipelines call: slices they place themselves,
// sharing bytes between buffers that are never alive together.
TEST(Guard, PlannedSlicesAreCheckedAtTheirFreeAndWhenTheirBytesAreReused) {
    HostArena a(1 << 16, guarded());
    void *uc = a.arena;
    EXPECT_EQ(harena_pipeline_guard_bytes(uc), 256u);
    EXPECT_EQ(harena_pipeline_guard_bytes(&a), 0u);  // not an arena
    ASSERT_EQ(harena_pipeline_enter(uc, "p", nullptr, 4096, 4096, HARENA_PIPELINE_GUARDS, 256), HARENA_OK);
    const uint64_t base = harena_pipeline_base(uc);
    // f at 256 (one band into the frame), 100 bytes in a slice of 256.
    EXPECT_EQ(harena::detail::guard_slice(uc, "p", "f", base + 256, 100, 156 + 256), HARENA_OK);
    write_byte(base + 256 + 100);
    EXPECT_EQ(harena::detail::guard_check(uc, base + 256), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"pipeline 'p'", "buffer 'f'", "from 1 to 1 bytes past its end"}));
    // g is dead without a check (its Free was on another path); h reuses its
    // bytes, so g's band is checked first.
    EXPECT_EQ(harena::detail::guard_slice(uc, "p", "g", base + 256, 40, 216 + 256), HARENA_OK);
    write_byte(base + 256 + 300);
    EXPECT_EQ(harena::detail::guard_slice(uc, "p", "h", base + 256, 1000, 256), HARENA_ERROR_GUARD_DAMAGED);
    EXPECT_TRUE(last_error_mentions({"buffer 'g'", "from 261 to 261 bytes past its end"}));
    EXPECT_EQ(harena::detail::guard_check(uc, base + 256), HARENA_OK);
    write_byte(base - 1 + 256);  // before the pipeline's first slice, inside its frame
    harena_pipeline_exit_as_destructor(uc, reinterpret_cast<void *>(base));
    EXPECT_TRUE(last_error_mentions({"pipeline 'p' wrote before the first slice of its frame", "from 1 to 1 bytes"}));
    EXPECT_EQ(a.stats().frame_depth, 0u);
    EXPECT_EQ(a.stats().guard_damaged, 3u);
}

TEST(Guard, APlannedSliceOutsideTheArenaIsRefused) {
    HostArena a(1 << 16, guarded());
    EXPECT_EQ(harena::detail::guard_slice(a.arena, "p", "f", a.base() + (1 << 16) - 10, 8, 256), HARENA_ERROR_NOT_IN_ARENA);
    EXPECT_TRUE(last_error_mentions({"the slice of f", "is not inside arena"}));
}

TEST(Guard, StatisticsShowTheBands) {
    HostArena a(1 << 16, guarded());
    harena_frame f = a.push();
    a.alloc(1);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    char text[1024];
    ASSERT_GT(harena_format_stats(a.arena, text, sizeof text), 0);
    EXPECT_NE(std::strstr(text, "guard bands    2 checked, 0 damaged (256 bytes"), nullptr) << text;
}
