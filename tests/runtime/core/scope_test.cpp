#include <thread>

#include "host_arena.h"

using harena_test::dummy_interface;
using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(Scope, BeginPushesAndActivatesEndPopsAndDeactivates) {
    HostArena a(1 << 16);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    EXPECT_EQ(harena_active_arena(nullptr), a.arena);
    EXPECT_EQ(harena_active_arena(dummy_interface()), nullptr);
    EXPECT_EQ(a.stats().frame_depth, 1u);
    a.alloc(1000);
    ASSERT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    EXPECT_EQ(a.stats().frame_depth, 0u);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Scope, TheInnermostScopeOfTheInterfaceWins) {
    HostArena host1(1 << 16), host2(1 << 16);
    alignas(256) static unsigned char device_memory[1 << 16];
    harena_arena *device = nullptr;
    ASSERT_EQ(harena_create_from_memory(dummy_interface(), reinterpret_cast<uint64_t>(device_memory),
                                        sizeof(device_memory), nullptr, &device),
              HARENA_OK);
    harena_scope s1, s2, s3;
    ASSERT_EQ(harena_scope_begin(&s1, host1.arena), HARENA_OK);
    ASSERT_EQ(harena_scope_begin(&s2, device), HARENA_OK);
    ASSERT_EQ(harena_scope_begin(&s3, host2.arena), HARENA_OK);
    EXPECT_EQ(harena_active_arena(nullptr), host2.arena);
    EXPECT_EQ(harena_active_arena(dummy_interface()), device);
    ASSERT_EQ(harena_scope_end(&s3), HARENA_OK);
    EXPECT_EQ(harena_active_arena(nullptr), host1.arena);
    ASSERT_EQ(harena_scope_end(&s2), HARENA_OK);
    EXPECT_EQ(harena_active_arena(dummy_interface()), nullptr);
    ASSERT_EQ(harena_scope_end(&s1), HARENA_OK);
    EXPECT_EQ(harena_destroy(device), HARENA_OK);
}

TEST(Scope, ScopesEndInReverseOrder) {
    HostArena a(1 << 16);
    harena_scope outer, inner;
    ASSERT_EQ(harena_scope_begin(&outer, a.arena), HARENA_OK);
    ASSERT_EQ(harena_scope_begin(&inner, a.arena), HARENA_OK);
    EXPECT_EQ(harena_scope_end(&outer), HARENA_ERROR_SCOPE_NOT_INNERMOST);
    EXPECT_TRUE(last_error_mentions({"not the innermost scope"}));
    EXPECT_EQ(harena_scope_end(&inner), HARENA_OK);
    EXPECT_EQ(harena_scope_end(&outer), HARENA_OK);
    EXPECT_EQ(harena_scope_end(&outer), HARENA_ERROR_INVALID_ARGUMENT);
}

// A frame pushed inside a scope and not popped before the scope ends: the
// end is refused and changes nothing, so that the caller can pop the frame
// and end the scope again (the arena can then be destroyed).
TEST(Scope, EndOverAFramePushedInsideItChangesNothing) {
    HostArena a(1 << 16);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    const harena_frame inside = a.push(512);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_ERROR_FRAME_NOT_TOP);
    EXPECT_TRUE(last_error_mentions({"harena_scope_end", "not the top frame"}));
    EXPECT_EQ(harena_active_arena(nullptr), a.arena);
    EXPECT_EQ(a.stats().frame_depth, 2u);
    ASSERT_EQ(harena_pop(a.arena, inside), HARENA_OK);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK) << harena_last_error();
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    EXPECT_EQ(a.stats().frame_depth, 0u);
}

TEST(Scope, ScopesArePerThread) {
    HostArena a(1 << 16);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    harena_arena *seen = a.arena;
    std::thread([&] { seen = harena_active_arena(nullptr); }).join();
    EXPECT_EQ(seen, nullptr);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
}

TEST(Scope, AttachedThreadsShareTheFrame) {
    HostArena a(1 << 16);
    harena_scope scope;
    ASSERT_EQ(harena_scope_begin(&scope, a.arena), HARENA_OK);
    uint64_t from_thread = 0;
    std::thread([&] {
        harena_scope attached;
        ASSERT_EQ(harena_scope_attach(&attached, a.arena), HARENA_OK);
        EXPECT_EQ(harena_active_arena(nullptr), a.arena);
        EXPECT_EQ(harena_alloc(harena_active_arena(nullptr), 100, nullptr, &from_thread), HARENA_OK);
        EXPECT_EQ(harena_destroy(a.arena), HARENA_ERROR_ARENA_IN_USE);
        EXPECT_EQ(harena_scope_end(&attached), HARENA_OK);
    }).join();
    EXPECT_EQ(from_thread, scope.frame.base);
    EXPECT_EQ(a.stats().frame_depth, 1u);
    EXPECT_EQ(harena_scope_end(&scope), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Scope, FindLocatesTheArenaOfAnAddressFromAnyThread) {
    HostArena a(1 << 16), b(1 << 16);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(10);
    EXPECT_EQ(harena_find(nullptr, p), a.arena);
    EXPECT_EQ(harena_find(dummy_interface(), p), nullptr);
    EXPECT_EQ(harena_find(nullptr, b.base() + 100), b.arena);
    int elsewhere = 0;
    EXPECT_EQ(harena_find(nullptr, reinterpret_cast<uint64_t>(&elsewhere)), nullptr);
    harena_arena *from_thread = nullptr;
    std::thread([&] { from_thread = harena_find(nullptr, p); }).join();
    EXPECT_EQ(from_thread, a.arena);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}
