// The median and its interval that the benchmarks print (bench/common/median.h).
#include "median.h"

#include <gtest/gtest.h>

#include <numeric>

namespace {

using harena_bench::median;
using harena_bench::median_interval;

std::vector<double> one_to(int n) {
    std::vector<double> v(n);
    std::iota(v.begin(), v.end(), 1.0);
    std::reverse(v.begin(), v.end());  // the order given must not matter
    return v;
}

TEST(Median, IsTheUpperMiddleSample) {
    EXPECT_EQ(median(one_to(5)), 3.0);
    EXPECT_EQ(median(one_to(4)), 3.0);
    EXPECT_EQ(median({}), 0.0);
}

// The ranks of binomial tables for a 95% interval of the median: n = 27 uses
// the 8th smallest and largest (P(X <= 7) = 0.0096, P(X <= 8) = 0.0261), n = 9
// the 2nd (P(X <= 1) = 0.0195), n = 81 the 32nd (P(X <= 31) = 0.0245).
TEST(MedianInterval, TakesTheBinomialRanks) {
    EXPECT_EQ(median_interval(one_to(27)).low, 8.0);
    EXPECT_EQ(median_interval(one_to(27)).high, 20.0);
    EXPECT_EQ(median_interval(one_to(9)).low, 2.0);
    EXPECT_EQ(median_interval(one_to(9)).high, 8.0);
    EXPECT_EQ(median_interval(one_to(81)).low, 32.0);
    EXPECT_EQ(median_interval(one_to(81)).high, 50.0);
}

TEST(MedianInterval, FewerThanNineSamplesGiveTheirRange) {
    EXPECT_EQ(median_interval(one_to(8)).low, 1.0);
    EXPECT_EQ(median_interval(one_to(8)).high, 8.0);
    EXPECT_EQ(median_interval(one_to(5)).low, 1.0);
    EXPECT_EQ(median_interval(one_to(5)).high, 5.0);
    EXPECT_EQ(median_interval({}).high, 0.0);
}

}  // namespace
