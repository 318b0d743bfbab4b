#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "core/arena.h"
#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(Misuse, ADestroyedArenaIsReportedNotUsed) {
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
TEST(Misuse, AnArenaDestroyedByAnotherThreadIsReportedRightAfterUse) {
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

TEST(Misuse, DestroyingAnotherArenaKeepsThisOneUsable) {
    HostArena kept(4096);
    harena_frame f{};
    ASSERT_EQ(harena_push(kept.arena, 0, &f), HARENA_OK);
    harena_arena *other = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &other), HARENA_OK);
    std::thread([other] { EXPECT_EQ(harena_destroy(other), HARENA_OK); }).join();
    EXPECT_EQ(harena_pop(kept.arena, f), HARENA_OK) << harena_last_error();
    EXPECT_EQ(harena_push(other, 0, &f), HARENA_ERROR_NOT_AN_ARENA);
}

TEST(Misuse, AForeignPointerIsNotAnArena) {
    int not_an_arena = 0;
    auto *bogus = reinterpret_cast<harena_arena *>(&not_an_arena);
    harena_frame f{};
    EXPECT_EQ(harena_push(bogus, 0, &f), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_destroy(bogus), HARENA_ERROR_NOT_AN_ARENA);
    EXPECT_EQ(harena_push(nullptr, 0, &f), HARENA_ERROR_INVALID_ARGUMENT);
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(nullptr, 1, nullptr, &address), HARENA_ERROR_INVALID_ARGUMENT);
}

TEST(Misuse, AllocationNeedsAFrame) {
    HostArena a(4096);
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, 10, "early", &address), HARENA_ERROR_NO_FRAME);
    EXPECT_TRUE(last_error_mentions({"no frame pushed", "10 bytes", "'early'"}));
}

TEST(Misuse, BadOptionsAreRefused) {
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

TEST(Misuse, DestroyWhileFramesArePushedIsRefused) {
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

TEST(Misuse, DebugModeReportsAllocationsAliveAtPop) {
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

TEST(Misuse, DebugModeCanBeTurnedOnFromTheEnvironment) {
    ASSERT_EQ(setenv("HARENA_DEBUG", "1", 1), 0);
    HostArena a(4096);
    ASSERT_EQ(unsetenv("HARENA_DEBUG"), 0);
    harena_info info{};
    ASSERT_EQ(harena_get_info(a.arena, &info), HARENA_OK);
    EXPECT_EQ(info.debug, 1);
}

TEST(Misuse, AScopesFrameIsPoppedOnlyByEndingTheScope) {
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, nullptr, &arena), HARENA_OK);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, arena), HARENA_OK);
    EXPECT_EQ(harena_pop(arena, scope.frame), HARENA_ERROR_FRAME_NOT_TOP);
    EXPECT_TRUE(last_error_mentions({"harena_pop", "belongs to a scope", "harena_scope_end"}));
    EXPECT_EQ(harena_destroy(arena), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_EQ(harena_active_arena(nullptr), arena);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

// An object that happens to start with the arena's magic word, as a stale or
// foreign pointer may: no entry point may take it for an arena.
TEST(Misuse, NoEntryPointDereferencesAForeignPointer) {
    alignas(64) static unsigned char lookalike[sizeof(harena_arena)];
    std::memset(lookalike, 0, sizeof(lookalike));
    std::memcpy(lookalike, &harena::detail::kArenaMagic, sizeof(harena::detail::kArenaMagic));
    for (unsigned char *bytes : {lookalike, lookalike + 1}) {
        auto *bogus = reinterpret_cast<harena_arena *>(bytes);
        uint64_t address = 0;
        EXPECT_EQ(harena_alloc(bogus, 64, nullptr, &address), HARENA_ERROR_NOT_AN_ARENA);
        EXPECT_TRUE(last_error_mentions({"harena_alloc", "is not a live arena"}));
        halide_dimension_t dim{0, 16, 1, 0};
        halide_buffer_t buf{};
        buf.type = halide_type_t(halide_type_float, 32);
        buf.dimensions = 1;
        buf.dim = &dim;
        EXPECT_EQ(harena_alloc_buffer(bogus, &buf, &address), HARENA_ERROR_NOT_AN_ARENA);
        EXPECT_EQ(harena_free(bogus, 0, 64), HARENA_ERROR_NOT_AN_ARENA);
        EXPECT_TRUE(last_error_mentions({"harena_free", "is not a live arena"}));
        harena_stats stats{};
        EXPECT_EQ(harena_get_stats(bogus, &stats), HARENA_ERROR_NOT_AN_ARENA);
        char text[64];
        EXPECT_EQ(harena_format_stats(bogus, text, sizeof(text)), HARENA_ERROR_NOT_AN_ARENA);
    }
}

TEST(Misuse, FormatStatsIntoNoBufferIsRefusedUnlessItIsEmpty) {
    HostArena a(4096);
    EXPECT_EQ(harena_format_stats(a.arena, nullptr, 100), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"harena_format_stats", "NULL", "100"}));
    const int needed = harena_format_stats(a.arena, nullptr, 0);
    EXPECT_GT(needed, 0);
    std::string text(needed + 1, '\0');
    EXPECT_EQ(harena_format_stats(a.arena, text.data(), text.size()), needed);
}

TEST(Misuse, AFrameStackTooDeepToHoldIsRefusedNotThrown) {
    harena_options o = HostArena::defaults();
    o.max_frames = UINT32_MAX;
    harena_arena *arena = nullptr;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"max_frames 4294967295", "at most"}));
    EXPECT_EQ(arena, nullptr);
    uint64_t region[64];
    EXPECT_EQ(harena_create_from_memory(nullptr, reinterpret_cast<uint64_t>(region), sizeof(region), &o, &arena),
              HARENA_ERROR_INVALID_ARGUMENT);
}

TEST(Misuse, ARegionThatWrapsPastTheAddressSpaceIsRefused) {
    harena_arena *arena = nullptr;
    const uint64_t address = UINT64_MAX - 4095;  // 4 KiB below the end, 256-aligned
    EXPECT_EQ(harena_create_from_memory(nullptr, address, 8192, nullptr, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"harena_create_from_memory", "8192 bytes", "wrap"}));
    EXPECT_EQ(arena, nullptr);
    // Up to the last byte is a region.
    ASSERT_EQ(harena_create_from_memory(nullptr, address, 4096, nullptr, &arena), HARENA_OK);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(Misuse, AnAlignmentAboveTheCapacityIsRefusedAsSuch) {
    harena_arena *arena = nullptr;
    harena_options o = HostArena::defaults();
    o.alignment = uint64_t(1) << 40;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"alignment 1099511627776", "capacity 4096 bytes"}));
    o.alignment = uint64_t(1) << 30;
    EXPECT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"alignment 1073741824", "capacity 4096 bytes"}));
    EXPECT_EQ(arena, nullptr);
    o.alignment = 4096;
    ASSERT_EQ(harena_create(nullptr, nullptr, 4096, &o, &arena), HARENA_OK);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}
