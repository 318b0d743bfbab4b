// The features' own state, each through its interface alone (arena.h
// composes them; the C API tests cover them inside an arena).
#include <gtest/gtest.h>

#include "graph/state.h"
#include "debug/state.h"
#include "growth/state.h"
#include "measure/state.h"
#include "stats/state.h"

using namespace harena::detail;

TEST(RuntimeCapture, OnlyAnActiveCaptureRefuses) {
    Capture c;
    EXPECT_FALSE(c.refuses(false));
    c.begin();
    EXPECT_FALSE(c.refuses(true));
    const Capture::Seen seen = c.end();
    EXPECT_TRUE(seen.entered);
    EXPECT_FALSE(seen.refused);
    EXPECT_FALSE(c.refuses(false));
}

TEST(RuntimeCapture, ARefusalStandsForTheWholeCapture) {
    Capture c;
    c.begin();
    EXPECT_TRUE(c.refuses(false));
    EXPECT_FALSE(c.refuses(true));  // a later pipeline of the same call
    EXPECT_TRUE(c.end().refused);
    c.begin();
    EXPECT_FALSE(c.end().entered);  // each capture starts afresh
}

TEST(RuntimeDebugRecords, AFreeMatchesTheRecordOfItsSlice) {
    DebugRecords r;
    r.configure(false, true);
    EXPECT_TRUE(r.kept());
    EXPECT_FALSE(r.debug());
    ASSERT_EQ(r.add(nullptr, 256, 512, 300, AllocationName{"a", nullptr}), HARENA_OK);
    bool found = false;
    EXPECT_EQ(r.mismatch(256, 512, &found), "");
    EXPECT_TRUE(found);
    EXPECT_NE(r.mismatch(256, 256, &found).find("'a'"), std::string::npos);
    EXPECT_TRUE(found);
    r.forget(256);
    EXPECT_NE(r.mismatch(256, 512, &found), "");
    EXPECT_FALSE(found);
}

TEST(RuntimeDebugRecords, APopDropsTheFramesRecordsAndDebugModeReportsThem) {
    DebugRecords r;
    r.configure(true, false);
    ASSERT_EQ(r.add(nullptr, 0, 256, 10, AllocationName{}), HARENA_OK);
    ASSERT_EQ(r.add(nullptr, 512, 256, 10, AllocationName{}), HARENA_OK);
    EXPECT_EQ(r.drop_from(nullptr, 7, 512), HARENA_ERROR_ALIVE_AT_POP);
    EXPECT_EQ(r.drop_from(nullptr, 8, 512), HARENA_OK);  // nothing left above 512
    bool found = false;
    (void)r.mismatch(0, 256, &found);
    EXPECT_TRUE(found);
}

TEST(RuntimeGrowth, WantedKeepsTheLargestRequestUntilTheArenaGrows) {
    Growth g;
    g.configure(true);
    g.want(1000);
    g.want(500);
    EXPECT_EQ(g.wanted(), 1000u);
    g.grew();
    EXPECT_EQ(g.wanted(), 0u);
    EXPECT_EQ(g.grows(), 1u);
    g.reset_count();
    EXPECT_EQ(g.grows(), 0u);
}

TEST(RuntimeMeasure, OnlyAMeasuringArenaTakesTheRequest) {
    Measure m;
    EXPECT_FALSE(m.take(100, 200));
    EXPECT_EQ(m.bytes(), 0u);
    m.start();
    EXPECT_TRUE(m.take(100, 200));
    EXPECT_EQ(m.bytes(), 100u);
    EXPECT_EQ(m.worst_case_bytes(), 200u);
}

TEST(RuntimeStatsCounters, ReportCountsFromTheLastReset) {
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
