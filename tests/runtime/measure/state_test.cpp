// The measure feature's state through its interface alone (measure/state.h):
// the bytes a measuring arena records. core/arena.h composes it into the
// arena; the C API tests cover it there.
#include <gtest/gtest.h>

#include "measure/state.h"

using namespace harena::detail;

TEST(Measure, OnlyAMeasuringArenaTakesTheRequest) {
    Measure m;
    EXPECT_FALSE(m.take(100, 200));
    EXPECT_EQ(m.bytes(), 0u);
    m.start();
    EXPECT_TRUE(m.take(100, 200));
    EXPECT_EQ(m.bytes(), 100u);
    EXPECT_EQ(m.worst_case_bytes(), 200u);
}
