// The plan drawing holds what it promises.
#include <gtest/gtest.h>

#include <limits>

#include "solver/svg.h"

namespace harena {
namespace {

size_t count(const std::string &text, const std::string &what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        n++;
    return n;
}

TEST(SolverSvg, DrawsEveryBufferWithTooltipAndLines) {
    Problem p = {{{"conv<1>", 0, 2, 100, 1}, {"b", 1, 3, 200, 1}, {"zero", 0, 3, 0, 1}}};
    Plan plan = solve(p);
    std::string svg = plan_svg(p, plan, "k & co");
    EXPECT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
    EXPECT_EQ(count(svg, "<rect"), 2u);  // not the zero-size buffer
    EXPECT_NE(svg.find("<title>conv&lt;1&gt;: 100 bytes at offset"), std::string::npos);
    EXPECT_NE(svg.find("live [1, 3)"), std::string::npos);
    EXPECT_NE(svg.find("k &amp; co"), std::string::npos);
    EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);
    EXPECT_NE(svg.find("lower bound 300 B"), std::string::npos);
    EXPECT_NE(svg.find("arena 300 B"), std::string::npos);
    EXPECT_NE(svg.find("time (step)"), std::string::npos);
}

TEST(SolverSvg, EmptyPlan) {
    std::string svg = plan_svg({}, solve({}), "empty");
    EXPECT_EQ(count(svg, "<rect"), 0u);
    EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// The time axis spans the whole int64 range without overflowing: its ticks
// run from the first step to the last.
TEST(SolverSvg, DrawsLifetimesAcrossTheWholeTimeRange) {
    const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
    Problem p = {{{"a", lo, hi, 100, 1}}};
    std::string svg = plan_svg(p, solve(p), "wide");
    EXPECT_NE(svg.find(">" + std::to_string(lo) + "</text>"), std::string::npos);
    EXPECT_NE(svg.find(">" + std::to_string(hi) + "</text>"), std::string::npos);
}

TEST(SolverSvg, RejectsMismatchedPlan) {
    EXPECT_THROW(plan_svg({{{"a", 0, 1, 8, 1}}}, Plan{}, "x"), std::invalid_argument);
}

}  // namespace
}  // namespace harena
