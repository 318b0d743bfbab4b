// GPU pipelines with no device intermediate (every stage fused into the
// output's tiles): nothing to plan, yet one call captured as a CUDA graph
// replays it, so the pipeline declares its traits at its start instead of
// opening a frame. One whose host work reads a device result within the
// call declares itself not capturable and the report names why; a host
// pipeline, which no graph captures, is left as Halide lowered it.
#include "arena_pass.h"
#include "capturing_pass.h"
#include "ir_queries.h"
#include "report/plan_report.h"

#include <gtest/gtest.h>

#include <string>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::Lowered;

// A 3x3 box blur whose horizontal pass lives in the output tile's shared
// memory; with `host_update`, the output gets an update stage on the CPU
// that reads the GPU's result.
Lowered lower_tile_fused(const Target &target, bool host_update = false) {
    ImageParam input(Float(32), 2, "input");
    Func clamped("clamped"), bx("bx"), out("out");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    clamped = BoundaryConditions::repeat_edge(input);
    bx(x, y) = clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y);
    out(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 9.0f;
    if (host_update) {
        out(0, 0) = out(0, 0) + out(1, 1);
    }
    if (target.has_gpu_feature()) {
        out.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        bx.compute_at(out, xo).gpu_threads(x, y);
        if (host_update) {
            out.update(0).unscheduled();  // on the CPU, as written
        }
    }
    out.output_buffer().set_estimates({{0, 256}, {0, 256}});
    input.set_estimates({{0, 256}, {0, 256}});
    Pipeline p(out);
    return harena_test::lower_for(p, {input}, "fused", target);
}

Target cuda_target() {
    return get_host_target().with_feature(Target::CUDA);
}

TEST(PassNothingPlanned, ATileFusedGpuPipelineDeclaresItselfCapturable) {
    Lowered l = lower_tile_fused(cuda_target());
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(l.report.planned_count(), 0) << text;
    EXPECT_TRUE(l.report.capturable) << l.report.not_capturable << "\n"
                                     << text;
    const auto declared = harena_test::call_arguments(l.stmt, "harena_pipeline_declare");
    ASSERT_EQ(declared.size(), 1u) << text;
    EXPECT_TRUE(is_const(declared[0][1], HARENA_PIPELINE_CAPTURABLE)) << declared[0][1];
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_enter"), 0) << text;
    // Before any work: the statement starts with it.
    const Block *first = l.stmt.as<Block>();
    ASSERT_NE(first, nullptr) << text;
    EXPECT_EQ(harena_test::count_calls(first->first, "harena_pipeline_declare"), 1) << text;
    const std::string header = harena::plan_header(l.report);
    EXPECT_NE(header.find("#define FUSED_ARENA_CAPTURABLE 1"), std::string::npos) << header;
    EXPECT_EQ(header.find("FUSED_ARENA_NOT_CAPTURABLE"), std::string::npos) << header;
}

TEST(PassNothingPlanned, HostWorkReadingADeviceResultDeclaresItselfNotCapturableAndSaysWhy) {
    Lowered l = lower_tile_fused(cuda_target(), true);
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(l.report.planned_count(), 0) << text;
    EXPECT_FALSE(l.report.capturable) << text;
    EXPECT_NE(l.report.not_capturable.find("halide_copy_to_host"), std::string::npos) << l.report.not_capturable;
    const auto declared = harena_test::call_arguments(l.stmt, "harena_pipeline_declare");
    ASSERT_EQ(declared.size(), 1u) << text;
    EXPECT_TRUE(is_const_zero(declared[0][1])) << declared[0][1];
    const std::string header = harena::plan_header(l.report);
    EXPECT_NE(header.find("#define FUSED_ARENA_CAPTURABLE 0"), std::string::npos) << header;
    EXPECT_NE(header.find("#define FUSED_ARENA_NOT_CAPTURABLE \"" + l.report.not_capturable + "\""),
              std::string::npos)
        << header;
}

TEST(PassNothingPlanned, AHostPipelineIsLeftAsHalideLoweredIt) {
    Lowered l = lower_tile_fused(get_host_target());
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(l.report.planned_count(), 0) << text;
    EXPECT_EQ(text.find("harena_"), std::string::npos) << text;
    EXPECT_FALSE(l.report.capturable);
}

}  // namespace
