// The stats feature's state through its interface alone (stats/state.h): the
// event counters behind harena_get_stats. core/arena.h composes it into the
// arena; stats_test.cpp covers it there.
#include <gtest/gtest.h>

#include "stats/state.h"

using namespace harena::detail;

TEST(StatsCounters, ReportCountsFromTheLastReset) {
    Stats s;
    s.overflow();
    EXPECT_TRUE(s.fallback());
    EXPECT_FALSE(s.fallback());  // noticed once
    s.eviction(64);
    s.pushed(3);
    s.pushed(1);
    harena_stats r{};
    s.report(r, 10, 4);
    EXPECT_EQ(r.overflows, 1u);
    EXPECT_EQ(r.fallbacks, 2u);
    EXPECT_EQ(r.evictions, 1u);
    EXPECT_EQ(r.evicted_bytes, 64u);
    EXPECT_EQ(r.frames_pushed, 2u);
    EXPECT_EQ(r.max_frame_depth, 3u);
    EXPECT_EQ(r.allocations, 10u);
    EXPECT_EQ(r.reclaimed, 4u);
    s.reset(10, 4, 1);
    s.report(r, 12, 4);
    EXPECT_EQ(r.overflows, 0u);
    EXPECT_EQ(r.frames_pushed, 0u);
    EXPECT_EQ(r.max_frame_depth, 1u);
    EXPECT_EQ(r.allocations, 2u);
    EXPECT_EQ(r.reclaimed, 0u);
    EXPECT_FALSE(s.fallback());  // still noticed: a reset does not notice again
}
