// The capture watch alone (core/capture_watch.h): a capture in progress and
// what the planned pipelines' entries saw of it. graph/cache_test.cpp covers
// it inside the graph cache's captures.
#include <gtest/gtest.h>

#include "core/capture_watch.h"

using namespace harena::detail;

TEST(CaptureWatch, OnlyAnActiveCaptureRefuses) {
    CaptureWatch c;
    EXPECT_FALSE(c.refuses(false));
    c.begin();
    EXPECT_FALSE(c.refuses(true));
    const CaptureWatch::Seen seen = c.end();
    EXPECT_TRUE(seen.entered);
    EXPECT_FALSE(seen.refused);
    EXPECT_FALSE(c.refuses(false));
}

TEST(CaptureWatch, ARefusalStandsForTheWholeCapture) {
    CaptureWatch c;
    c.begin();
    EXPECT_TRUE(c.refuses(false));
    EXPECT_FALSE(c.refuses(true));  // a later pipeline of the same call
    EXPECT_TRUE(c.end().refused);
    c.begin();
    EXPECT_FALSE(c.end().entered);  // each capture starts afresh
}
