// The kernel-busy clock's arithmetic: the time covered by kernel intervals,
// overlapping kernels counted once (bench/common/kernel_busy.h). The clock
// itself needs a GPU and CUPTI; the benchmarks check its records there.
#include "kernel_busy.h"

#include <gtest/gtest.h>

namespace {

using harena_bench::covered_ns;

TEST(KernelBusy, NothingRecordedCoversNothing) {
    EXPECT_EQ(covered_ns({}), 0u);
}

TEST(KernelBusy, DisjointKernelsAddUp) {
    EXPECT_EQ(covered_ns({{100, 150}, {200, 260}, {1000, 1001}}), 50u + 60u + 1u);
}

TEST(KernelBusy, OverlappingAndNestedKernelsCountOnce) {
    // 100-300 covered by three overlapping kernels, one nested in another.
    EXPECT_EQ(covered_ns({{100, 200}, {150, 300}, {160, 170}}), 200u);
}

TEST(KernelBusy, TouchingKernelsLeaveNoGapAndOrderDoesNotMatter) {
    EXPECT_EQ(covered_ns({{300, 400}, {100, 200}, {200, 300}}), 300u);
}

TEST(KernelBusy, AKernelInsideAnEarlierLongOneAddsNothing) {
    EXPECT_EQ(covered_ns({{0, 1000}, {10, 20}, {500, 900}, {1000, 1010}}), 1010u);
}

TEST(KernelBusy, ABatchIsTrustedOnlyWithEveryRecordAndNoMoreBusyTimeThanWallTime) {
    using harena_bench::busy_problem;
    using harena_bench::KernelBusy;
    EXPECT_EQ(busy_problem(KernelBusy{90.0, 4, 0, 0}, 100.0), "");
    EXPECT_EQ(busy_problem(KernelBusy{100.0, 4, 0, 0}, 100.0), "");
    EXPECT_EQ(busy_problem(KernelBusy{90.0, 4, 0, 2}, 100.0), "2 kernel records lost, 0 incomplete");
    EXPECT_EQ(busy_problem(KernelBusy{90.0, 4, 1, 0}, 100.0), "0 kernel records lost, 1 incomplete");
    EXPECT_EQ(busy_problem(KernelBusy{120.5, 4, 0, 0}, 100.0), "kernels busy 120.5 us in a batch of 100.0 us");
}

}  // namespace
