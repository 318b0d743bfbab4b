#include <cstdlib>
#include <thread>

#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(RuntimeMisuse, ADestroyedArenaIsReportedNotUsed) {
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &arena), HARENA_OK);
    ASSERT_EQ(harena_destroy(arena), HARENA_OK);
    harena_frame f{};
    EXPECT_EQ(harena_push(arena, 0, &f), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_TRUE(last_error_mentions({"harena_push", "is not a live arena"}));
    EXPECT_EQ(harena_pop(arena, f), HARENA_ERROR_NOT_AN_ARENA);
    harena_stats s{};
    EXPECT_EQ(harena_get_stats(arena, &s), HARENA_ERROR_NOT_AN_ARENA);
    harena_info info{};
    EXPECT_EQ(harena_get_info(arena, &info), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_destroy(arena), HARENA_ERROR_NOT_AN_ARENA);
    harena_scope scope;
    EXPECT_EQ(harena_scope_begin(&scope, arena), HARENA_ERROR_NOT_AN_ARENA);
}

// Each thread remembers the last arena it found live, so that scopes and
// planned pipelines skip the registry's lock; destroying an arena on any
// thread must still make this thread's next check fail.
TEST(RuntimeMisuse, AnArenaDestroyedByAnotherThreadIsReportedRightAfterUse) {
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &arena), HARENA_OK);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena), HARENA_OK);
    ASSERT_EQ(harena_scope_end(&scope), HARENA_OK);
    std::thread([arena] { EXPECT_EQ(harena_destroy(arena), HARENA_OK); }).join();
    EXPECT_EQ(harena_scope_begin(&scope, arena), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_TRUE(last_error_mentions({"harena_scope_begin", "is not a live arena"}));
    EXPECT_EQ(harena_pipeline_enter(arena, "p", nullptr, 0, 0, 0, 256), HARENA_ERROR_NOT_AN_ARENA);
}

TEST(RuntimeMisuse, DestroyingAnotherArenaKeepsThisOneUsable) {
    HostArena kept(4096);
    harena_frame f{};
    ASSERT_EQ(harena_push(kept.arena, 0, &f), HARENA_OK);
    harena_arena *other = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &other), HARENA_OK);
    std::thread([other] { EXPECT_EQ(harena_destroy(other), HARENA_OK); }).join();
    EXPECT_EQ(harena_pop(kept.arena, f), HARENA_OK) << harena_last_error();
    EXPECT_EQ(harena_push(other, 0, &f), HARENA_ERROR_NOT_AN_ARENA);
}

TEST(RuntimeMisuse, AForeignPointerIsNotAnArena) {
    int not_an_arena = 0;
    auto *bogus = reinterpret_cast<harena_arena *>(&not_an_arena);
    harena_frame f{};
    EXPECT_EQ(harena_push(bogus, 0, &f), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_destroy(bogus), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_push(nullptr, 0, &f), HARENA_ERROR_INVALID_ARGUMENT);
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(nullptr, 1, nullptr, &address), HARENA_ERROR_INVALID_ARGUMENT);
}

TEST(RuntimeMisuse, AllocationNeedsAFrame) {
    HostArena a(4096);
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, 10, "early", &address), HARENA_ERROR_NO_FRAME);
    EXPECT_TRUE(last_error_mentions({"no frame pushed", "10 bytes", "'early'"}));
}

TEST(RuntimeMisuse, BadOptionsAreRefused) {
    harena_arena *arena = nullptr;
    harena_options o = HostArena::defaults();
    o.alignment = 48;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"alignment 48 is not a power of two"}));
    o = HostArena::defaults();
    o.overflow_policy = 7;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    o = HostArena::defaults();
    o.max_frames = 0;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(harena_create(nullptr, nullptr, 0, nullptr, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, nullptr), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    EXPECT_EQ(harena_create_from_memory(nullptr, 0, 4096, nullptr, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(harena_create_from_memory(nullptr, 0x1001, 200, nullptr, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"hold no 256-aligned block"}));
}

TEST(RuntimeMisuse, DestroyWhileFramesArePushedIsRefused) {
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &arena), HARENA_OK);
    harena_frame f{};
    ASSERT_EQ(harena_push(arena, 0, &f), HARENA_OK);
    EXPECT_EQ(harena_destroy(arena), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(last_error_mentions({"1 frame(s) pushed", "left alive"}));
    // Still alive and usable.
    EXPECT_EQ(harena_pop(arena, f), HARENA_OK);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(RuntimeMisuse, DebugModeReportsAllocationsAliveAtPop) {
    harena_options o = HostArena::defaults();
    o.debug = 1;
    HostArena a(1 << 16, o);
    harena_frame outer = a.push();
    const uint64_t kept = a.alloc(100, "kept");
    harena_frame f = a.push();
    const uint64_t freed = a.alloc(300, "freed");
    a.alloc(3000, "leaked");
    EXPECT_EQ(harena_free(a.arena, freed, 300), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_ERROR_ALIVE_AT_POP);
    EXPECT_TRUE(last_error_mentions({"'leaked'", "3072 bytes", "still alive"}));
    EXPECT_EQ(a.stats().frame_depth, 1u);  // popped anyway
    EXPECT_EQ(harena_free(a.arena, kept, 100), HARENA_OK);
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_OK);
}

TEST(RuntimeMisuse, DebugModeCanBeTurnedOnFromTheEnvironment) {
    ASSERT_EQ(setenv("HARENA_DEBUG", "1", 1), 0);
    HostArena a(4096);
    ASSERT_EQ(unsetenv("HARENA_DEBUG"), 0);
    harena_info info{};
    ASSERT_EQ(harena_get_info(a.arena, &info), HARENA_OK);
    EXPECT_EQ(info.debug, 1);
}
