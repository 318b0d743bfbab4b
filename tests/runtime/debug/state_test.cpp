// The debug feature's state through its interface alone (debug/state.h): the
// record debug and guard modes keep of what is allocated and not yet freed.
// core/arena.h composes it into the arena; the C API tests cover it there.
#include <gtest/gtest.h>

#include <string>

#include "debug/state.h"
#include "harena/runtime.h"

using namespace harena::detail;

TEST(DebugRecords, AFreeMatchesTheRecordOfItsSlice) {
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

TEST(DebugRecords, APopDropsTheFramesRecordsAndDebugModeReportsThem) {
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
