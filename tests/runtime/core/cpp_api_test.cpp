#include <type_traits>

#include "harena/arena.hpp"
#include "host_arena.h"

static_assert(!std::is_copy_constructible_v<harena::Arena>);
static_assert(std::is_nothrow_move_constructible_v<harena::Arena>);
static_assert(!std::is_copy_constructible_v<harena::Scope>);
static_assert(!std::is_move_constructible_v<harena::Scope>);

TEST(CppApi, HostArenaAllocatesInFrames) {
    harena::Arena arena = harena::Arena::host(1 << 20);
    EXPECT_EQ(arena.capacity(), 1u << 20);
    EXPECT_EQ(arena.alignment(), 256u);
    EXPECT_EQ(arena.device_interface(), nullptr);
    harena::Frame f = arena.push();
    const uint64_t p = arena.allocate(100, "p");
    EXPECT_EQ(p, arena.base());
    arena.deallocate(p, 100);
    EXPECT_EQ(arena.stats().reclaimed, 1u);
    arena.pop(f);
    EXPECT_NE(arena.stats_string().find("allocations    1"), std::string::npos);
}

TEST(CppApi, ErrorsThrowWithTheCodeAndMessage) {
    harena::Arena arena = harena::Arena::host(4096);
    try {
        (void)arena.allocate(10);
        FAIL() << "expected harena::Error";
    } catch (const harena::Error &e) {
        EXPECT_EQ(e.code(), HARENA_ERROR_NO_FRAME);
        EXPECT_NE(std::string(e.what()).find("no frame pushed"), std::string::npos);
    }
    harena::Options options;
    options.alignment = 3;
    EXPECT_THROW((void)harena::Arena::host(4096, options), harena::Error);
}

TEST(CppApi, MovingTransfersOwnership) {
    harena::Arena a = harena::Arena::host(4096);
    harena_arena *handle = a.get();
    harena::Arena b = std::move(a);
    EXPECT_EQ(a.get(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    EXPECT_EQ(b.get(), handle);
    harena::Arena c = harena::Arena::host(4096);
    c = std::move(b);
    EXPECT_EQ(c.get(), handle);
    EXPECT_EQ(c.capacity(), 4096u);
}

TEST(CppApi, ScopeActivatesForItsLifetime) {
    harena::Arena arena = harena::Arena::host(1 << 16);
    {
        harena::Scope scope(arena);
        EXPECT_EQ(harena_active_arena(nullptr), arena.get());
        EXPECT_EQ(scope.frame().base, arena.base());
        (void)arena.allocate(5000);
        {
            harena::Scope nested(arena);
            EXPECT_EQ(arena.stats().frame_depth, 2u);
        }
        EXPECT_EQ(arena.stats().frame_depth, 1u);
    }
    EXPECT_EQ(harena_active_arena(nullptr), nullptr);
    EXPECT_EQ(arena.stats().bytes_in_use, 0u);
}

TEST(CppApi, WrapUsesTheCallersMemory) {
    alignas(256) static unsigned char memory[1 << 14];
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = harena::Arena::wrap(nullptr, reinterpret_cast<uint64_t>(memory), sizeof(memory), options);
    EXPECT_EQ(arena.base(), reinterpret_cast<uint64_t>(memory));
    EXPECT_EQ(arena.info().owns_memory, 0);
    EXPECT_EQ(arena.info().overflow_policy, HARENA_OVERFLOW_FALLBACK);
}

// A pipeline that fails before its frame opens reports through halide_error,
// not through the arena: the exception must not carry an earlier, unrelated
// arena message.
TEST(CppApi, MeasureOfAFailingCallCarriesNoStaleMessage) {
    harena_frame frame{};
    ASSERT_EQ(harena_push(nullptr, 0, &frame), HARENA_ERROR_INVALID_ARGUMENT);  // an unrelated earlier error
    try {
        (void)harena::measure([](void *) { return int(halide_error_code_bad_type); });
        FAIL() << "expected harena::Error";
    } catch (const harena::Error &e) {
        EXPECT_EQ(e.code(), halide_error_code_bad_type);
        const std::string message = e.what();
        EXPECT_EQ(message.find("harena_push"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(halide_error_code_bad_type)), std::string::npos) << message;
    }
}
