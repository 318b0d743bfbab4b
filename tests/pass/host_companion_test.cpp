// Host-only buffers of GPU pipelines (a CPU reduction between GPU stages):
// planned as a problem of their own into the device arena's host companion,
// which the pipeline enters after the arena and leaves on every path.
#include "arena_pass.h"
#include "capturing_pass.h"
#include "ir_queries.h"
#include "report/plan_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::Lowered;

// The GPU counts a histogram per band of 16 rows, the CPU accumulates each
// band's counts into a host-only buffer (`cdf`) and takes a level from them
// (through a one-element scratch Halide keeps on the stack), and the GPU
// reads the levels. `bands` > 0 fixes the number of bands, so that the
// counts have a worst case; otherwise their size follows the input's height,
// which has only an estimate. Without `gpu_schedule` every stage runs on the
// CPU, whatever the target.
Lowered lower_band_levels(const Target &target, int bands = 0, bool gpu_schedule = true) {
    ImageParam input(UInt(8), 2, "input");
    Func hist("hist"), cdf("cdf"), level("level"), out("out");
    Var x("x"), y("y"), b("b"), s("s"), bi, si, xi, yi;
    RDom rx(0, input.width(), 0, 16);
    hist(b, s) = 0;
    hist(cast<int>(input(rx.x, clamp(s * 16 + rx.y, 0, input.height() - 1))), s) += 1;
    cdf(b, s) = hist(0, s);
    RDom rc(1, 255);
    cdf(rc, s) = cdf(rc - 1, s) + hist(rc, s);
    RDom r(0, 256);
    level(s) = minimum(select(cdf(r, s) > 8, r, 255));
    Expr band = bands > 0 ? clamp(y / 16, 0, bands - 1) : y / 16;
    out(x, y) = cast<uint8_t>(clamp(cast<int>(input(x, y)) - level(band), 0, 255));
    cdf.compute_root().bound(b, 0, 256);
    if (bands > 0) {
        cdf.bound(s, 0, bands);
    }
    level.compute_root();
    if (target.has_gpu_feature() && gpu_schedule) {
        hist.compute_root().gpu_tile(b, s, bi, si, 64, 1);
        hist.update().gpu_tile(s, si, 8, TailStrategy::GuardWithIf);
        out.gpu_tile(x, y, xi, yi, 8, 8);
    } else {
        hist.compute_root();
    }
    out.output_buffer().set_estimates({{0, 64}, {0, 64}});
    input.set_estimates({{0, 64}, {0, 64}});
    Pipeline p(out);
    return harena_test::lower_for(p, {input}, "band_levels", target);
}

Target cuda() {
    return get_host_target().with_feature(Target::CUDA);
}

const harena::BufferDecision *find_decision(const harena::PassReport &report, const std::string &prefix) {
    for (const harena::BufferDecision &d : report.buffers) {
        if (d.name.rfind(prefix, 0) == 0) {
            return &d;
        }
    }
    return nullptr;
}

// The counts are planned host memory, in the companion (not a device
// intermediate, and not left to halide_malloc); the stack scratch is no
// allocation at all; the GPU buffers are planned in the arena; a graph could
// not replay the CPU reduction of what the GPU computed in the same call,
// and the report says which stage.
TEST(PassHostCompanion, ACpuReductionOfAGpuResultIsPlannedInTheHostCompanionAndIsNotCapturable) {
    Lowered l = lower_band_levels(cuda());
    const std::string text = harena_test::text_of(l.stmt);
    for (const harena::BufferDecision &d : l.report.buffers) {
        SCOPED_TRACE(d.name);
        EXPECT_EQ(d.name.rfind("minimum", 0), std::string::npos) << "a stack scratch was recorded";
        EXPECT_TRUE(d.planned) << d.reason << "\n"
                               << text;
        EXPECT_EQ(d.in_host_companion, d.name.rfind("cdf", 0) == 0);
        EXPECT_EQ(d.kind.rfind(d.in_host_companion ? "host" : "device", 0), 0u) << d.kind;
    }
    EXPECT_EQ(l.report.host_planned, 1);
    EXPECT_FALSE(l.report.host_bounded);
    EXPECT_GE(l.report.host_arena_bytes, 256u * 4 * 4);  // 256 counts of the 4 bands of the estimate
    EXPECT_FALSE(l.report.capturable);
    EXPECT_EQ(l.report.not_capturable.rfind("a host-side store to cdf", 0), 0u) << l.report.not_capturable;
    EXPECT_NE(l.report.not_capturable.find(", whose stage reads hist"), std::string::npos) << l.report.not_capturable;
}

// One entry, after the arena's, whose exit is registered first (a failed
// host entry still pops the device frame); the companion's exit is
// registered as soon as it is entered.
TEST(PassHostCompanion, TheCompanionIsEnteredAfterTheArenaAndLeftOnEveryPath) {
    Lowered l = lower_band_levels(cuda());
    const std::string text = harena_test::text_of(l.stmt);
    const auto enters = harena_test::call_arguments(l.stmt, "harena_pipeline_host_enter");
    ASSERT_EQ(enters.size(), 1u) << text;
    EXPECT_EQ(harena_test::name_in(enters[0][1]), "band_levels");
    EXPECT_EQ(harena_test::name_in(enters[0][2]).rfind("cdf", 0), 0u);
    EXPECT_TRUE(is_const_zero(enters[0][4])) << "no worst case: the counts follow the input's height";
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_host_base"), 1) << text;
    EXPECT_EQ(harena_test::count_destructors(l.stmt, "harena_pipeline_host_exit_as_destructor"), 1) << text;
    const size_t enter = text.find("harena_pipeline_enter("), exit = text.find("harena_pipeline_exit_as_destructor"),
                 host_enter = text.find("harena_pipeline_host_enter("),
                 host_exit = text.find("harena_pipeline_host_exit_as_destructor");
    ASSERT_NE(host_exit, std::string::npos) << text;
    EXPECT_LT(enter, exit) << text;
    EXPECT_LT(exit, host_enter) << text;
    EXPECT_LT(host_enter, host_exit) << text;
    EXPECT_LT(host_exit, text.find("produce cdf")) << text;
}

// The counts are a slice of the companion's frame, freed by nobody; the
// device frame's slice events (guard bands, memory checkers) never see it.
TEST(PassHostCompanion, TheHostBufferIsASliceOfTheCompanionFrame) {
    Lowered l = lower_band_levels(cuda());
    const std::string text = harena_test::text_of(l.stmt);
    const harena::BufferDecision *cdf = find_decision(l.report, "cdf");
    ASSERT_NE(cdf, nullptr);
    EXPECT_EQ(harena_test::find_allocate(l.stmt, cdf->name), nullptr) << "left to halide_malloc:\n"
                                                                      << text;
    const Expr slice = harena_test::slice_binding(l.stmt, cdf->name);
    ASSERT_TRUE(slice.defined()) << text;
    EXPECT_TRUE(expr_uses_var(slice, "harena.host_base")) << slice;
    EXPECT_TRUE(expr_uses_var(slice, "harena.host.offset.0")) << slice;
    for (const auto &event : harena_test::call_arguments(l.stmt, "harena_pipeline_slice")) {
        EXPECT_FALSE(expr_uses_var(event[4], "harena.host_base")) << text;
    }
}

// With a fixed number of bands the counts have a worst case, which sizes a
// companion the call creates.
TEST(PassHostCompanion, CountsOfAFixedNumberOfBandsHaveAWorstCase) {
    Lowered l = lower_band_levels(cuda(), 32);
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_TRUE(l.report.host_bounded);
    EXPECT_EQ(l.report.host_arena_bytes, 33024u) << "256 x 32 counts, Halide's padding, aligned";
    const auto enters = harena_test::call_arguments(l.stmt, "harena_pipeline_host_enter");
    ASSERT_EQ(enters.size(), 1u) << text;
    EXPECT_TRUE(is_const(enters[0][4], 33024)) << enters[0][4];
}

// The plan report lists the counts as planned host memory in the companion,
// and the header gives its bytes.
TEST(PassHostCompanion, ThePlanReportListsTheHostBufferAndTheCompanionsBytes) {
    Lowered l = lower_band_levels(cuda());
    std::ostringstream json;
    harena::write_plan_json(json, l.report);
    EXPECT_NE(json.str().find("\"kind\": \"host\", \"planned\": true, \"in\": \"host companion\""), std::string::npos)
        << json.str();
    EXPECT_NE(json.str().find("\"host_buffers_planned\": 1"), std::string::npos) << json.str();
    const std::string header = harena::plan_header(l.report);
    EXPECT_NE(header.find("#define BAND_LEVELS_ARENA_HOST_BUFFERS 1\n"), std::string::npos) << header;
    EXPECT_NE(header.find("#define BAND_LEVELS_ARENA_HOST_BYTES_AT_ESTIMATES " +
                          std::to_string(l.report.host_arena_bytes) + "ull"),
              std::string::npos)
        << header;
    EXPECT_NE(harena::plan_summary(l.report).find("1 of them host-only"), std::string::npos);
}

// A pipeline built for CUDA that does all its work on the CPU has no device
// interface to enter its arena with, so no companion either: its buffers
// stay with halide_malloc, as the report says.
TEST(PassHostCompanion, AGpuTargetPipelineWithNoDeviceWorkLeavesItsHostBuffersToHalide) {
    Lowered l = lower_band_levels(cuda(), 0, false);
    EXPECT_EQ(l.report.host_planned, 0);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_enter"), 0);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_host_enter"), 0);
    const harena::BufferDecision *cdf = find_decision(l.report, "cdf");
    ASSERT_NE(cdf, nullptr);
    EXPECT_FALSE(cdf->planned);
    EXPECT_EQ(cdf->reason, "host-only buffer of a GPU pipeline with no device allocation or copy: left to halide_malloc");
}

// A host pipeline's arena is host memory already: no companion.
TEST(PassHostCompanion, AHostPipelineHasNoCompanion) {
    Lowered l = lower_band_levels(get_host_target());
    EXPECT_EQ(l.report.host_planned, 0);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_host_enter"), 0);
    const harena::BufferDecision *cdf = find_decision(l.report, "cdf");
    ASSERT_NE(cdf, nullptr);
    EXPECT_TRUE(cdf->planned);
    EXPECT_FALSE(cdf->in_host_companion);
    EXPECT_EQ(harena::plan_header(l.report).find("HOST_BYTES"), std::string::npos);
}

}  // namespace
