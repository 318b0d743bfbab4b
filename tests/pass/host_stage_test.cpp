// Host stages of GPU pipelines: a lookup table the CPU computes from scalar
// arguments alone is a function of the call's key, so the pipeline stays
// capturable; one that reads an input buffer's contents is not (nor one that
// reads a GPU result: host_companion_test.cpp).
#include "arena_pass.h"
#include "capturing_pass.h"
#include "ir_queries.h"

#include <gtest/gtest.h>

#include <string>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::Lowered;

// A tone curve tabulated on the CPU and read by a GPU stage. The curve reads
// the scalar `gain` and, when `curve_reads_input`, the first pixel of the
// input; `steps` chains a second host table behind the first.
Lowered lower_lut(bool curve_reads_input, bool chained = false) {
    ImageParam input(UInt(8), 2, "input");
    Param<float> gain("gain", 1.5f);
    Func curve("curve"), steps("steps"), out("out");
    Var x("x"), y("y"), xi, yi;
    Expr v = cast<float>(x) * gain;
    curve(x) = curve_reads_input ? v + cast<float>(input(0, 0)) : v;
    Func table = curve;
    if (chained) {
        steps(x) = curve(x) * 0.5f + curve(255 - x);
        table = steps;
    }
    out(x, y) = table(cast<int>(input(x, y)));
    curve.compute_root().bound(x, 0, 256);
    if (chained) {
        steps.compute_root().bound(x, 0, 256);
    }
    out.gpu_tile(x, y, xi, yi, 8, 8);
    out.output_buffer().set_estimates({{0, 64}, {0, 64}});
    input.set_estimates({{0, 64}, {0, 64}});
    Pipeline p(out);
    return harena_test::lower_for(p, {input, gain}, "lut", get_host_target().with_feature(Target::CUDA));
}

// The table's host part comes from harena_key_host_malloc, which places it
// in a block the graph owns while a call is captured.
TEST(PassHostStage, ATableComputedFromScalarsOnlyIsCapturable) {
    Lowered l = lower_lut(false);
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(l.report.planned_count(), 1) << text;
    EXPECT_TRUE(l.report.capturable) << l.report.not_capturable << "\n"
                                     << text;
    const auto calls = harena_test::call_arguments(l.stmt, "harena_key_host_malloc");
    ASSERT_EQ(calls.size(), 1u) << text;
    // Halide names the Func "curve$N" where this process made a "curve" before.
    const std::string table = harena_test::name_in(calls[0][1]);
    EXPECT_TRUE(table.rfind("curve", 0) == 0 && table.find(".buffer") != std::string::npos) << table << "\n"
                                                                                            << text;
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_device_and_host_malloc"), 0) << text;
}

// `curve` is then a host-only buffer that no GPU stage reads: a graph needs
// nothing of it, only of `steps`, whose upload it replays.
TEST(PassHostStage, ATableBuiltFromAnotherScalarOnlyTableIsCapturable) {
    Lowered l = lower_lut(false, true);
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_TRUE(l.report.capturable) << l.report.not_capturable << "\n"
                                     << text;
    const auto calls = harena_test::call_arguments(l.stmt, "harena_key_host_malloc");
    ASSERT_EQ(calls.size(), 1u) << text;
    EXPECT_EQ(harena_test::name_in(calls[0][1]).rfind("steps", 0), 0u) << text;
}

TEST(PassHostStage, ATableThatReadsAnInputBufferIsNotCapturableAndSaysWhy) {
    Lowered l = lower_lut(true);
    EXPECT_FALSE(l.report.capturable);
    // Halide numbers repeated Func names: curve may be curve$2.
    EXPECT_EQ(l.report.not_capturable.rfind("a host-side store to curve", 0), 0u) << l.report.not_capturable;
    EXPECT_NE(l.report.not_capturable.find(", whose stage reads input"), std::string::npos)
        << l.report.not_capturable;
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_key_host_malloc"), 0);
}

// A table read by another host table that reads an input: the reader is not
// a function of the key either.
TEST(PassHostStage, ATableBuiltFromOneThatReadsAnInputIsNotCapturable) {
    Lowered l = lower_lut(true, true);
    EXPECT_FALSE(l.report.capturable);
    EXPECT_NE(l.report.not_capturable.find(", whose stage reads "), std::string::npos) << l.report.not_capturable;
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_key_host_malloc"), 0);
}

}  // namespace
