#include <string>

#include "host_arena.h"

using harena_test::HostArena;

TEST(Stats, CountsWhatHappened) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(1000);
    a.alloc(10);
    harena_frame g = a.push(300);
    harena_stats s = a.stats();
    EXPECT_EQ(s.capacity, 1u << 16);
    EXPECT_EQ(s.bytes_in_use, 1024u + 256 + 512);
    EXPECT_EQ(s.high_water, s.bytes_in_use);
    EXPECT_EQ(s.allocations, 2u);
    EXPECT_EQ(s.frames_pushed, 2u);
    EXPECT_EQ(s.frame_depth, 2u);
    EXPECT_EQ(s.max_frame_depth, 2u);
    EXPECT_EQ(s.overflows, 0u);
    EXPECT_EQ(s.fallbacks, 0u);

    EXPECT_EQ(harena_pop(a.arena, g), HARENA_OK);
    EXPECT_EQ(harena_free(a.arena, p, 1000), HARENA_OK);  // not the top: no reclaim
    s = a.stats();
    EXPECT_EQ(s.bytes_in_use, 1024u + 256);
    EXPECT_EQ(s.high_water, 1024u + 256 + 512);
    EXPECT_EQ(s.reclaimed, 0u);
    EXPECT_EQ(s.frame_depth, 1u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Stats, ResetZeroesCountersAndRestartsTheHighWater) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    a.alloc(4096);
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, 1 << 20, nullptr, &address), HARENA_ERROR_OVERFLOW);
    harena_frame g = a.push();
    a.alloc(256);
    EXPECT_EQ(harena_pop(a.arena, g), HARENA_OK);
    EXPECT_EQ(harena_reset_stats(a.arena), HARENA_OK);
    harena_stats s = a.stats();
    EXPECT_EQ(s.bytes_in_use, 4096u);
    EXPECT_EQ(s.high_water, 4096u);
    EXPECT_EQ(s.allocations, 0u);
    EXPECT_EQ(s.overflows, 0u);
    EXPECT_EQ(s.frames_pushed, 0u);
    EXPECT_EQ(s.max_frame_depth, 1u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Stats, FormatNamesEveryFigure) {
    HostArena a(1 << 20);
    harena_frame f = a.push();
    a.alloc(3 << 10);
    const int length = harena_format_stats(a.arena, nullptr, 0);
    ASSERT_GT(length, 0);
    std::string text(static_cast<size_t>(length) + 1, '\0');
    EXPECT_EQ(harena_format_stats(a.arena, text.data(), text.size()), length);
    text.resize(static_cast<size_t>(length));
    for (const char *piece : {"host memory", "capacity       1048576 bytes (1.00 MiB)", "in use         3072 bytes",
                              "high water", "allocations    1", "frames pushed  1", "overflows      0"}) {
        EXPECT_NE(text.find(piece), std::string::npos) << piece << " missing from:\n"
                                                       << text;
    }
    char small[16];
    EXPECT_EQ(harena_format_stats(a.arena, small, sizeof(small)), length);
    EXPECT_EQ(std::string(small).size(), sizeof(small) - 1);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Stats, CountsStayExactPastTheWrapsOfTheStateWord) {
    // The state word keeps each count modulo 2^12; every wrap moves to a
    // separate counter, and a wrapping reclaim count must not carry into the
    // allocation count or the offset.
    constexpr uint64_t kPairs = 3 * 4096 + 17;
    HostArena a(1 << 16);
    harena_frame f = a.push();
    a.alloc(100);  // not reclaimed: its frame pops
    for (uint64_t i = 0; i < kPairs; i++) {
        const uint64_t p = a.alloc(300);
        ASSERT_EQ(harena_free(a.arena, p, 300), HARENA_OK);
    }
    harena_stats s = a.stats();
    EXPECT_EQ(s.allocations, kPairs + 1);
    EXPECT_EQ(s.reclaimed, kPairs);
    EXPECT_EQ(s.bytes_in_use, 256u);
    EXPECT_EQ(s.high_water, 256u + 512);

    EXPECT_EQ(harena_reset_stats(a.arena), HARENA_OK);
    for (uint64_t i = 0; i < 4096; i++) {
        const uint64_t p = a.alloc(1);
        ASSERT_EQ(harena_free(a.arena, p, 1), HARENA_OK);
    }
    a.alloc(1);
    s = a.stats();
    EXPECT_EQ(s.allocations, 4097u);
    EXPECT_EQ(s.reclaimed, 4096u);
    EXPECT_EQ(s.bytes_in_use, 512u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Stats, ResetRestartsTheReclaimCount) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    uint64_t p = a.alloc(10);
    EXPECT_EQ(harena_free(a.arena, p, 10), HARENA_OK);
    EXPECT_EQ(a.stats().reclaimed, 1u);
    EXPECT_EQ(harena_reset_stats(a.arena), HARENA_OK);
    EXPECT_EQ(a.stats().reclaimed, 0u);
    p = a.alloc(10);
    EXPECT_EQ(harena_free(a.arena, p, 10), HARENA_OK);
    EXPECT_EQ(a.stats().reclaimed, 1u);
    EXPECT_EQ(a.stats().allocations, 1u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}
