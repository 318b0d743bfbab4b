// The validator catches hand-made bad plans and names what is wrong.
#include <gtest/gtest.h>

#include "solver/validator.h"

namespace harena {
namespace {

const Problem kProblem = {{{"a", 0, 4, 100, 1}, {"b", 2, 6, 100, 4}, {"c", 6, 8, 50, 1}}};

Plan plan_of(std::vector<uint64_t> offsets, uint64_t arena) {
    Plan plan;
    plan.offsets = std::move(offsets);
    plan.arena_bytes = arena;
    return plan;
}

void expect_error(const Plan &plan, std::vector<std::string> parts) {
    Validation v = validate(kProblem, plan);
    EXPECT_FALSE(v.ok);
    for (const std::string &part : parts)
        EXPECT_NE(v.error.find(part), std::string::npos) << v.error;
}

TEST(Validator, AcceptsGoodPlan) {
    Validation v = validate(kProblem, plan_of({0, 100, 0}, 200));
    EXPECT_TRUE(v.ok) << v.error;
    EXPECT_TRUE(validate({}, plan_of({}, 0)).ok);
}

TEST(Validator, OverlapNamesBothBuffers) {
    expect_error(plan_of({0, 96, 0}, 196),
                 {"buffer 'a' (#0) live [0, 4) at bytes [0, 100)", "buffer 'b' (#1) live [2, 6) at bytes [96, 196)"});
}

TEST(Validator, SameBytesAtDifferentTimesIsFine) {
    // a and c are never alive together; half-open lifetimes touching at 6
    // (b ends, c begins) do not overlap either.
    EXPECT_TRUE(validate(kProblem, plan_of({0, 100, 100}, 200)).ok);
}

TEST(Validator, ZeroSizeBuffersOverlapNothing) {
    Problem p = {{{"a", 0, 4, 100, 1}, {"z", 0, 4, 0, 1}}};
    EXPECT_TRUE(validate(p, plan_of({0, 50}, 100)).ok);
}

TEST(Validator, Misaligned) {
    expect_error(plan_of({0, 102, 0}, 202), {"'b' (#1)", "not aligned to 4"});
}

TEST(Validator, OutsideArena) {
    expect_error(plan_of({0, 100, 180}, 200), {"'c' (#2)", "outside the arena of 200"});
}

TEST(Validator, ArenaLargerThanUsed) {
    expect_error(plan_of({0, 100, 0}, 256), {"arena_bytes is 256", "ends at byte 200"});
}

TEST(Validator, WrongNumberOfOffsets) {
    expect_error(plan_of({0, 100}, 200), {"2 offsets for 3 buffers"});
}

TEST(Validator, OffsetNearOverflow) {
    expect_error(plan_of({UINT64_MAX - 10, 100, 0}, 200), {"'a' (#0)", "outside the arena"});
}

}  // namespace
}  // namespace harena
