// Pipelines Halide lowers that declare estimates, not maxima: planned at the
// estimates with per-call sizes, made bounded by maxima given as options
// (maxima.h), or refused when bounds are required.
#include "arena_pass.h"
#include "capturing_pass.h"
#include "ir_queries.h"
#include "pass_builders.h"
#include "generator/maxima.h"

#include <gtest/gtest.h>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::decision;

using harena_test::Lowered;

// A two-stage chain whose sizes follow the output, which declares estimates
// only, and a scalar k with an estimate. Halide makes Func names unique in a
// process (out, out$1, ...), so expectations use Func::name().
struct Chain {
    ImageParam input{Float(32), 2, "input"};
    Param<int> k{"k"};
    Func a{"a"}, b{"b"}, out{"out"};
    Var x{"x"}, y{"y"};
    Pipeline p;

    Chain() {
        a(x, y) = input(x, y) * k;
        b(x, y) = a(x, y) + a(x + 1, y);
        out(x, y) = b(x, y) + b(x, y + 1);
        a.compute_root();
        b.compute_root();
        out.output_buffer().set_estimates({{0, 300}, {0, 200}});
        k.set_estimate(4);
        p = Pipeline(out);
    }

    std::vector<harena::NamedArgument> arguments() const {
        return {{"input", input.parameter()}, {"k", k.parameter()}, {out.name(), out.output_buffer().parameter()}};
    }

    Lowered lower(harena::PassOptions o) {
        o.trace = 0;
        return harena_test::lower_for_host(p, {input, k}, "chain", o);
    }
};

TEST(PassLoweredEstimates, OutputEstimatesGiveThePlansSizes) {
    Chain c;
    Lowered l = c.lower({});
    ASSERT_EQ(l.report.planned_count(), 2);
    EXPECT_FALSE(l.report.bounded);
    // a is (300 + 1) x (200 + 1) floats at the estimates, plus the read-past padding.
    EXPECT_EQ(decision(l.report, c.a.name()).planned_bytes, (301u * 201u + 3u) * 4u);
    std::vector<std::string> names;
    for (const harena::RepresentativeValue &v : l.report.representative) {
        names.push_back(v.name + "=" + std::to_string(static_cast<int64_t>(v.value)));
    }
    EXPECT_NE(std::find(names.begin(), names.end(), c.out.name() + ".extent.0=300"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), c.out.name() + ".extent.1=200"), names.end());
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_enter"), 1);
}

// A grid whose depth follows a floating-point scalar, as a bilateral grid's
// follows 1 / r_sigma: the scalar's estimate is its representative value.
TEST(PassLoweredEstimates, AFloatScalarsEstimateSizesWhatDependsOnIt) {
    ImageParam input(Float(32), 1, "input");
    Param<float> r("r");
    r.set_estimate(0.25f);
    Func grid("grid"), out("out");
    Var x("x"), z("z");
    grid(x, z) = input(x) * cast<float>(z);
    RDom d(0, cast<int>(1.0f / r));
    out(x) = sum(grid(x, d));
    grid.compute_root();
    out.output_buffer().set_estimates({{0, 100}});
    Pipeline p(out);
    Lowered l = harena_test::lower_for_host(p, {input, r}, "grid");
    ASSERT_EQ(l.report.planned_count(), 1);
    // 100 x 4 floats at the estimates, plus the read-past padding.
    EXPECT_EQ(l.report.buffers[0].planned_bytes, (100u * 4u + 3u) * 4u);
    bool found = false;
    for (const harena::RepresentativeValue &v : l.report.representative) {
        found |= v.name == "r" && v.value == 0.25;
    }
    EXPECT_TRUE(found);
}

// Upsampling through a coarse grid, as bilateral guided upsampling slices
// one: the grid's extent is another stage's loop bound computed in floating
// point (floor of x over a spacing that is a float scalar times the ceiling
// of a ratio of extents), which interval arithmetic over the extents cannot
// follow. The call at the estimates can be evaluated, and is planned.
TEST(PassLoweredEstimates, ASizeThroughFloatCastsAndCeilIsEvaluatedAtTheEstimates) {
    ImageParam low(Float(32), 1, "low"), high(Float(32), 1, "high");
    Param<float> s("s");
    s.set_estimate(8.0f);
    Func coarse("coarse"), out("out");
    Var x("x");
    coarse(x) = low(clamp(x, 0, low.width() - 1)) * 2.0f;
    Expr ratio = cast<int>(ceil(cast<float>(high.width()) / low.width()));
    Expr xi = cast<int>(floor(cast<float>(x) / (s * cast<float>(ratio))));
    out(x) = high(x) * (coarse(xi) + coarse(xi + 1));
    coarse.compute_root();
    low.set_estimates({{0, 250}});
    high.set_estimates({{0, 1000}});
    out.output_buffer().set_estimates({{0, 1000}});
    Pipeline p(out);
    Lowered l = harena_test::lower_for_host(p, {low, high, s}, "upsample");
    ASSERT_EQ(l.report.planned_count(), 1) << l.report.buffers[0].reason;
    // At the estimates the spacing is 8 * ceil(1000 / 250) = 32, so coarse
    // covers [0, floor(999 / 32) + 1] = [0, 32]: 33 floats, plus the read-past padding.
    EXPECT_EQ(l.report.buffers[0].planned_bytes, (33u + 3u) * 4u);
}

TEST(PassLoweredEstimates, RequiringBoundsRefusesTheBuildNamingTheExtent) {
    Chain c;
    harena::PassOptions o;
    o.unbounded = harena::Unbounded::Error;
    try {
        c.lower(o);
        FAIL() << "expected a compile error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("buffer '" + c.a.name() + "'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("nothing bounds '" + c.out.name() + ".extent.0'"), std::string::npos) << msg;
    }
}

TEST(PassLoweredEstimates, MaximaGivenAsOptionsBoundThePlanAsDeclaredOnesDo) {
    Chain c;
    const std::string out = c.out.name();
    for (const harena::MaximumRequirement &r : harena::requirements_for({{out + ".0", 256}, {out + ".1", 128}}, c.arguments())) {
        std::vector<Expr> message = r.message;
        c.p.add_requirement(r.condition, message);
    }
    Lowered l = c.lower({});
    ASSERT_EQ(l.report.planned_count(), 2);
    EXPECT_TRUE(l.report.bounded);
    // The same worst case as lowered_pipeline_test's chain, which declares them.
    EXPECT_EQ(decision(l.report, c.a.name()).planned_bytes, (257u * 129u + 3u) * 4u);
    // The requirement names the option, for the message of a call beyond it.
    EXPECT_NE(harena_test::text_of(l.stmt).find("harena.max." + out + ".0=256"), std::string::npos);
}

TEST(PassLoweredEstimates, AMaximumForAScalarBoundsWhatDependsOnIt) {
    ImageParam input(Float(32), 1, "input");
    Param<int> levels("levels");
    levels.set_estimate(3);
    Func per_level("per_level"), out("out");
    Var x("x"), l("l");
    RDom r(0, levels);
    per_level(l) = cast<float>(l);
    out(x) = input(x);
    out(x) += per_level(r);
    per_level.compute_root();
    out.output_buffer().dim(0).set_extent(16);
    std::vector<harena::NamedArgument> args{{"input", input.parameter()}, {"levels", levels.parameter()}};
    Pipeline p(out);
    for (const harena::MaximumRequirement &m : harena::requirements_for({{"levels", 5000}}, args)) {
        std::vector<Expr> message = m.message;
        p.add_requirement(m.condition, message);
    }
    Lowered low = harena_test::lower_for_host(p, {input, levels}, "levels");
    ASSERT_EQ(low.report.planned_count(), 1);
    EXPECT_TRUE(low.report.bounded);
    EXPECT_EQ(decision(low.report, per_level.name()).planned_bytes, (5000u + 3u) * 4u);
}

TEST(PassLoweredEstimates, AMaximumNamingNothingListsWhatExists) {
    Chain c;
    for (const char *key : {"kk", "input.2", "out", "k.0"}) {
        try {
            (void)harena::requirements_for({{key, 16}}, c.arguments());
            ADD_FAILURE() << key << ": expected a compile error";
        } catch (const CompileError &e) {
            std::string msg = e.what();
            EXPECT_NE(msg.find(std::string("harena.max.") + key + "=16 names no argument"), std::string::npos) << msg;
            EXPECT_NE(msg.find("scalar inputs: k;"), std::string::npos) << msg;
            EXPECT_NE(msg.find("input.0 .. input.1, " + c.out.name() + ".0 .. " + c.out.name() + ".1"), std::string::npos)
                << msg;
        }
    }
    EXPECT_THROW((void)harena::requirements_for({{"k", int64_t(1) << 40}}, c.arguments()), CompileError)
        << "a maximum int32 cannot hold";
}

TEST(PassLoweredEstimates, AStageInsideALoopOverAScalarsRangeGetsAnEntryBound) {
    // g is computed per level r inside out's loop over [0, levels), over a
    // region that shrinks with r: the frame reserves the largest, from the
    // output's extent and levels alone.
    ImageParam input(Float(32), 1, "input");
    Param<int> levels("levels");
    levels.set_estimate(4);
    Func g("g"), out("out");
    Var x("x"), l("l");
    RDom r(0, levels, "r");
    g(x, l) = input(clamp(x, 0, 63)) * cast<float>(l);
    out(x) = 0.0f;
    out(x) += g(x / (r + 1), r);
    out.update().reorder(x, r);
    g.compute_at(out, r);
    out.output_buffer().set_estimates({{0, 100}});
    Pipeline p(out);
    Lowered low = harena_test::lower_for_host(p, {input, levels}, "levels");
    ASSERT_EQ(low.report.planned_count(), 1);
    EXPECT_FALSE(decision(low.report, g.name()).bounded);
    const Expr bytes = harena_test::checked_bytes(low.stmt, g.name());
    ASSERT_TRUE(bytes.defined());
    const std::string r_var = out.name() + ".s1.r$x";
    for (int extent : {10, 100, 1000}) {
        const int levels_now = 3;
        harena_test::Frame f = harena_test::evaluate_frame(
            low.stmt, {{"levels", make_const(Int(32), levels_now)}, {out.name() + ".extent.0", make_const(Int(32), extent)}, {out.name() + ".min.0", make_const(Int(32), 0)}, {"input.min.0", make_const(Int(32), 0)}, {"input.extent.0", make_const(Int(32), 64)}});
        // What g takes in each iteration r of the loop, and the largest of them
        // (g covers the most at r = 0): the frame reserves exactly that.
        int64_t largest = 0;
        for (int level = 0; level < levels_now; level++) {
            int64_t in_iteration = f.evaluate(bytes, {{r_var, make_const(Int(32), level)}});
            EXPECT_LE((uint64_t)in_iteration, f.size(0)) << extent << ", r = " << level;
            largest = std::max(largest, in_iteration);
        }
        EXPECT_EQ(std::max<uint64_t>((uint64_t)largest, 256), f.size(0)) << extent;
    }
}

}  // namespace
