// The growth feature's state through its interface alone (growth/state.h):
// the capacity overflows asked for and how many times the region grew.
// core/arena.h composes it into the arena; growth_test.cpp covers it there.
#include <gtest/gtest.h>

#include "growth/state.h"

using namespace harena::detail;

TEST(GrowthState, WantedKeepsTheLargestRequestUntilTheArenaGrows) {
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
