// Frees that do not match an allocation are refused before they release
// bytes: in every mode where the runtime can tell from the top of the stack,
// and in debug and guard modes wherever the allocation lies.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

std::string hex(uint64_t address) {
    char text[32];
    std::snprintf(text, sizeof(text), "0x%" PRIx64, address);
    return text;
}

harena_options with_mode(const char *mode) {
    harena_options o = HostArena::defaults();
    o.debug = std::string(mode) == "debug";
    o.guard = std::string(mode) == "guard";
    return o;
}

// Pops at the end of a test; debug mode reports what the test left alive.
struct PushedFrame {
    explicit PushedFrame(HostArena &a)
        : arena(a), frame(a.push()) {
    }
    ~PushedFrame() {
        const int popped = harena_pop(arena.arena, frame);
        EXPECT_TRUE(popped == HARENA_OK || popped == HARENA_ERROR_ALIVE_AT_POP) << harena_last_error();
    }
    HostArena &arena;
    harena_frame frame;
};

class InvalidFree : public ::testing::TestWithParam<const char *> {};

TEST_P(InvalidFree, AnInteriorPointerOfTheTopSliceIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    a.alloc(256, "a");
    const uint64_t b = a.alloc(512, "b");
    const uint64_t in_use = a.stats().bytes_in_use;
    EXPECT_EQ(harena_free(a.arena, b + 256, 256), HARENA_ERROR_INVALID_FREE);
    EXPECT_TRUE(last_error_mentions({"harena_free", hex(b + 256), "256 bytes", "not"}));
    EXPECT_EQ(a.stats().bytes_in_use, in_use);
    EXPECT_GE(a.alloc(256, "c"), b + 512);
}

TEST_P(InvalidFree, AWrongSizeThatReachesALiveSliceIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    const uint64_t first = a.alloc(100, "first");
    a.alloc(100, "second");
    const uint64_t in_use = a.stats().bytes_in_use;
    EXPECT_EQ(harena_free(a.arena, first, 300), HARENA_ERROR_INVALID_FREE);
    EXPECT_TRUE(last_error_mentions({hex(first), "300 bytes"}));
    EXPECT_EQ(a.stats().bytes_in_use, in_use);
}

TEST_P(InvalidFree, ADoubleFreeOfTheTopSliceIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    const uint64_t p = a.alloc(100, "p");
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_ERROR_INVALID_FREE);
    EXPECT_TRUE(last_error_mentions({hex(p), "100 bytes"}));
}

TEST_P(InvalidFree, ADoubleFreeAfterReuseByALargerSliceIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    const uint64_t p = a.alloc(100, "p");
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    const uint64_t reused = a.alloc(1000, "reused");
    ASSERT_EQ(reused, p);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_ERROR_INVALID_FREE);
    // The reused slice is still whole: the next allocation comes after it.
    EXPECT_GE(a.alloc(100, "next"), reused + 1000);
}

TEST_P(InvalidFree, AnAddressThatIsNoSliceStartIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    const uint64_t p = a.alloc(1000, "p");
    EXPECT_EQ(harena_free(a.arena, p + 8, 100), HARENA_ERROR_INVALID_FREE);
    EXPECT_EQ(harena_free(a.arena, p + 4096, 100), HARENA_ERROR_INVALID_FREE);  // above the top
    EXPECT_EQ(harena_free(a.arena, p, 1000), HARENA_OK);
}

INSTANTIATE_TEST_SUITE_P(Modes, InvalidFree, ::testing::Values("plain", "debug", "guard"),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

// Below the top slice only the record that debug and guard modes keep can
// tell a bad free from a good one.
class InvalidFreeChecked : public ::testing::TestWithParam<const char *> {};

TEST_P(InvalidFreeChecked, EveryMismatchBelowTheTopIsRefused) {
    HostArena a(1 << 16, with_mode(GetParam()));
    PushedFrame frame(a);
    const uint64_t first = a.alloc(512, "first");
    const uint64_t second = a.alloc(256, "second");
    const uint64_t third = a.alloc(256, "third");
    EXPECT_EQ(harena_free(a.arena, third, 256), HARENA_OK);
    // first + second end at the top now, and nothing says where the top slice begins.
    EXPECT_EQ(harena_free(a.arena, first, 768), HARENA_ERROR_INVALID_FREE);
    EXPECT_TRUE(last_error_mentions({hex(first), "768 bytes", "'first'", "512 bytes"}));
    EXPECT_EQ(harena_free(a.arena, first + 256, 256), HARENA_ERROR_INVALID_FREE);
    EXPECT_EQ(harena_free(a.arena, second, 256), HARENA_OK);
    EXPECT_EQ(harena_free(a.arena, second, 256), HARENA_ERROR_INVALID_FREE);
    EXPECT_EQ(harena_free(a.arena, first, 512), HARENA_OK);
}

INSTANTIATE_TEST_SUITE_P(Modes, InvalidFreeChecked, ::testing::Values("debug", "guard"),
                         [](const ::testing::TestParamInfo<const char *> &info) { return std::string(info.param); });

}  // namespace
