#include "solver/detail/exact/stacking.h"

#include <gtest/gtest.h>

namespace harena::detail {
namespace {

// A section with its floor at 10 and 2 bytes to spare below the capacity.
bool stacks(const std::vector<std::pair<uint64_t, uint64_t>> &buffers) {
    StackingCheck check(1);
    check.start(10, 2);
    for (const auto &[lowest, size] : buffers)
        check.add(lowest, size);
    uint64_t work = 0;
    return check.possible(work);
}

TEST(StackingCheck, BuffersBelowEachHeightMustFillUpToIt) {
    EXPECT_TRUE(stacks({{10, 4}, {14, 4}}));
    EXPECT_TRUE(stacks({{12, 4}, {16, 4}}));   // the spare room may stay below
    EXPECT_FALSE(stacks({{13, 4}, {17, 4}}));  // bytes 10-13 cannot all be filled
    EXPECT_TRUE(stacks({{17, 4}, {10, 5}}));   // in any order
    EXPECT_FALSE(stacks({{10, 3}, {16, 4}}));  // a gap of 1 above the spare room
}

TEST(StackingCheck, EachSectionOncePerPlan) {
    StackingCheck check(3);
    check.next_plan();
    EXPECT_TRUE(check.first_visit(1));
    EXPECT_FALSE(check.first_visit(1));
    EXPECT_TRUE(check.first_visit(2));
    check.next_plan();
    EXPECT_TRUE(check.first_visit(1));
}

}  // namespace
}  // namespace harena::detail
