// The graph feature's state through its interface alone (graph/state.h): a
// capture in progress and what the planned pipeline's entry saw of it.
// core/arena.h composes it into the arena; cache_test.cpp covers it there.
#include <gtest/gtest.h>

#include "graph/state.h"

using namespace harena::detail;

TEST(GraphCapture, OnlyAnActiveCaptureRefuses) {
    Capture c;
    EXPECT_FALSE(c.refuses(false));
    c.begin();
    EXPECT_FALSE(c.refuses(true));
    const Capture::Seen seen = c.end();
    EXPECT_TRUE(seen.entered);
    EXPECT_FALSE(seen.refused);
    EXPECT_FALSE(c.refuses(false));
}

TEST(GraphCapture, ARefusalStandsForTheWholeCapture) {
    Capture c;
    c.begin();
    EXPECT_TRUE(c.refuses(false));
    EXPECT_FALSE(c.refuses(true));  // a later pipeline of the same call
    EXPECT_TRUE(c.end().refused);
    c.begin();
    EXPECT_FALSE(c.end().entered);  // each capture starts afresh
}
