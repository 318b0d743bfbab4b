// Arenas that grow (harena_options.grow) and shrink (harena_shrink_to_fit),
// on host memory.
#include "harena/arena.hpp"
#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

harena_options growing(int32_t overflow_policy = HARENA_OVERFLOW_ERROR) {
    harena_options o = HostArena::defaults();
    o.grow = 1;
    o.overflow_policy = overflow_policy;
    return o;
}

int enter(HostArena &a, uint64_t bytes) {
    return harena_pipeline_enter(a.arena, "grower", nullptr, bytes, bytes, 0, 256);
}

void exit_pipeline(HostArena &a) {
    harena_pipeline_exit_as_destructor(a.arena, reinterpret_cast<void *>(harena_pipeline_base(a.arena)));
}

}  // namespace

TEST(Growth, APlannedCallThatNeedsMoreGrowsTheArenaBeforeItRuns) {
    HostArena a(4096, growing());
    ASSERT_EQ(enter(a, 10000), HARENA_OK) << harena_last_error();
    EXPECT_EQ(a.stats().capacity, 10240u) << "as large as needed, which is more than twice 4096";
    EXPECT_EQ(a.stats().grows, 1u);
    exit_pipeline(a);
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(Growth, TheNewRegionIsAtLeastTwiceTheOld) {
    HostArena a(8192, growing());
    ASSERT_EQ(enter(a, 9000), HARENA_OK) << harena_last_error();
    EXPECT_EQ(a.stats().capacity, 16384u);
    exit_pipeline(a);
    // A call that fits leaves it alone.
    ASSERT_EQ(enter(a, 12000), HARENA_OK);
    exit_pipeline(a);
    EXPECT_EQ(a.stats().grows, 1u);
}

TEST(Growth, NothingMovesWhileAFrameIsPushed) {
    HostArena a(4096, growing());
    harena_frame outer = a.push(1024);
    const uint64_t base = a.base();
    EXPECT_EQ(enter(a, 10000), HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"grower", "1 enclosing frame"}));
    EXPECT_EQ(a.base(), base);
    EXPECT_EQ(a.stats().capacity, 4096u);
    EXPECT_EQ(a.stats().grows, 0u);
    ASSERT_EQ(harena_pop(a.arena, outer), HARENA_OK);
}

TEST(Growth, AnAllocationThatDidNotFitMakesTheNextFrameLargeEnough) {
    HostArena a(4096, growing(HARENA_OVERFLOW_FALLBACK));
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    a.alloc(3000);
    uint64_t address = 0;
    testing::internal::CaptureStderr();  // the fallback's one-time notice
    EXPECT_EQ(harena_alloc(a.arena, 5000, "big", &address), HARENA_ERROR_OVERFLOW);
    (void)testing::internal::GetCapturedStderr();
    ASSERT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(a.stats().capacity, 4096u) << "never while the frame was pushed";

    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    EXPECT_EQ(a.stats().capacity, 8192u) << "3072 + 5120 bytes were wanted";
    a.alloc(3000);
    EXPECT_NE(a.alloc(5000, "big"), 0u);
    ASSERT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(a.stats().grows, 1u);
}

// A request larger than any arena can be (1 TiB) cannot be met by growing:
// it overflows like any other and leaves the next frames alone, where it
// used to make every later frame try, and fail, to allocate 1 TiB.
TEST(Growth, ARequestNoArenaCanHoldDoesNotMakeLaterFramesGrow) {
    HostArena a(1 << 20, growing(HARENA_OVERFLOW_FALLBACK));
    harena_frame frame = a.push();
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, uint64_t(1) << 41, "huge", &address), HARENA_ERROR_OVERFLOW);
    ASSERT_EQ(harena_pop(a.arena, frame), HARENA_OK);
    // A known last error, to see that the next push reports none.
    EXPECT_EQ(harena_pop(a.arena, harena_frame{12345, 0}), HARENA_ERROR_FRAME_STACK_EMPTY);
    frame = a.push();
    EXPECT_TRUE(last_error_mentions({"frame #12345"})) << "the push tried to grow the arena";
    EXPECT_EQ(a.stats().capacity, uint64_t(1) << 20);
    EXPECT_EQ(a.stats().grows, 0u);
    // Growth still answers a request an arena can hold.
    EXPECT_EQ(harena_alloc(a.arena, 3 << 20, "large", &address), HARENA_ERROR_OVERFLOW);
    ASSERT_EQ(harena_pop(a.arena, frame), HARENA_OK);
    frame = a.push();
    EXPECT_GE(a.stats().capacity, uint64_t(3) << 20);
    ASSERT_EQ(harena_pop(a.arena, frame), HARENA_OK);
}

TEST(Growth, WithoutTheOptionTheArenaNeverGrows) {
    HostArena a(4096);
    EXPECT_EQ(enter(a, 10000), HARENA_ERROR_OVERFLOW);
    EXPECT_TRUE(last_error_mentions({"grower", "needs 10000 bytes"}));
    EXPECT_EQ(a.stats().capacity, 4096u);
}

TEST(Growth, AnArenaOverTheCallersMemoryCannotGrow) {
    static unsigned char memory[8192];
    harena_options o = growing();
    harena_arena *arena = nullptr;
    EXPECT_EQ(harena_create_from_memory(nullptr, reinterpret_cast<uint64_t>(memory), sizeof memory, &o, &arena),
              HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    EXPECT_TRUE(last_error_mentions({"cannot grow", "harena_options.grow"}));
}

TEST(Growth, ShrinkToFitKeepsTheLargestUseAndGivesBackTheRest) {
    HostArena a(1 << 20);
    harena_frame f = a.push();
    a.alloc(3000);
    a.alloc(100);
    EXPECT_EQ(harena_shrink_to_fit(a.arena), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(last_error_mentions({"1 frame(s) pushed", "between runs"}));
    ASSERT_EQ(harena_pop(a.arena, f), HARENA_OK);
    ASSERT_EQ(harena_shrink_to_fit(a.arena), HARENA_OK) << harena_last_error();
    EXPECT_EQ(a.stats().capacity, 3072u + 256u);
    // What it held still fits.
    f = a.push();
    a.alloc(3000);
    a.alloc(100);
    ASSERT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Growth, ShrinkToFitRefusesMemoryTheArenaDoesNotOwn) {
    static unsigned char memory[8192];
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create_from_memory(nullptr, reinterpret_cast<uint64_t>(memory), sizeof memory, nullptr, &arena),
              HARENA_OK);
    EXPECT_EQ(harena_shrink_to_fit(arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"does not own its memory"}));
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(Growth, TheCppLayerGrowsAndShrinks) {
    harena::Options options;
    options.grow = true;
    harena::Arena arena = harena::Arena::host(4096, options);
    {
        harena::Scope scope(arena);
    }
    ASSERT_EQ(harena_pipeline_enter(arena.get(), "p", nullptr, 20000, 20000, 0, 256), HARENA_OK);
    harena_pipeline_exit_as_destructor(arena.get(), reinterpret_cast<void *>(harena_pipeline_base(arena.get())));
    EXPECT_EQ(arena.capacity(), 20224u);
    arena.reset_stats();
    arena.shrink_to_fit();
    EXPECT_EQ(arena.capacity(), 256u) << "nothing used since the reset";
}
