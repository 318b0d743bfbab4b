// The pass on statements whose sizes have estimates, not maxima: each buffer
// is planned at representative sizes (a declared maximum, else the estimate,
// else the nominal extent), and each call's offsets and bytes follow that
// call's sizes, whatever they are.
#include "arena_pass.h"
#include "ir_queries.h"
#include "pass_builders.h"
#include "halide_compat.h"
#include "report/plan_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace Halide;
using namespace Halide::Internal;
using harena::make_for;
using harena::PassOptions;
using harena::PassReport;
using harena::plan_arena;

namespace {

using harena_test::decision;
using harena_test::heap;
using harena_test::quiet;
using harena_test::store;

Parameter scalar(const std::string &name) {
    return Parameter(Int(32), false, 0, name);
}

Expr var(const Parameter &p) {
    return Variable::make(Int(32), p.name(), p);
}

// Two buffers alive together, of w and 2w floats.
Stmt two_alive_together(const Expr &w) {
    return heap("a", w, heap("b", w * 2, Block::make(store("a"), store("b"))));
}

// Host heap bytes of n floats (Halide pads by three elements), counted as at
// least one alignment unit.
uint64_t host_bytes(int64_t n) {
    return std::max<uint64_t>((uint64_t)(n + 3) * 4, 256);
}

TEST(PassParametric, ASizeWithOnlyAnEstimateIsPlannedAtTheEstimate) {
    Parameter w = scalar("w");
    w.set_estimate(100);
    PassReport r;
    plan_arena(two_alive_together(var(w)), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 2);
    EXPECT_FALSE(r.bounded);
    EXPECT_FALSE(decision(r, "a").bounded);
    EXPECT_EQ(decision(r, "a").planned_bytes, 103u * 4);
    EXPECT_EQ(decision(r, "b").planned_bytes, 203u * 4);
    EXPECT_EQ(decision(r, "b").unbounded_by, std::vector<std::string>{"w"});
    ASSERT_EQ(r.representative.size(), 1u);
    EXPECT_EQ(r.representative[0].name, "w");
    EXPECT_EQ(r.representative[0].value, 100);
    EXPECT_EQ(r.representative[0].source, "its estimate");
}

TEST(PassParametric, EachCallsLayoutFollowsItsSizesBelowAtAndFarAboveTheEstimate) {
    Parameter w = scalar("w");
    w.set_estimate(100);
    PassReport r;
    Stmt out = plan_arena(two_alive_together(var(w)), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 2);
    for (int call : {1, 100, 5000}) {
        harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}});
        EXPECT_EQ(f.size(0), host_bytes(call)) << call;
        EXPECT_EQ(f.size(1), host_bytes(2 * call)) << call;
        // Alive together, so apart in every call: one rests on the other.
        uint64_t lo = std::min(f.offset(0), f.offset(1)), hi = std::max(f.offset(0), f.offset(1));
        uint64_t lo_size = lo == f.offset(0) ? f.size(0) : f.size(1);
        EXPECT_GE(hi, lo + lo_size) << call;
        EXPECT_EQ(f.needed, std::max(f.offset(0) + f.size(0), f.offset(1) + f.size(1))) << call;
        // There is no worst case to quote.
        EXPECT_EQ(f.worst_case, 0u) << call;
        if (call == 100) {
            EXPECT_EQ(f.needed, r.plan_bytes) << "a call at the estimate needs what the plan says";
        }
    }
}

TEST(PassParametric, ADeclaredMaximumComesBeforeTheEstimate) {
    Parameter w = scalar("w");
    w.set_estimate(100);
    w.set_max_value(make_const(Int(32), 1000));
    PassReport r;
    Stmt out = plan_arena(two_alive_together(var(w)), quiet(), &r);
    EXPECT_TRUE(r.bounded);
    EXPECT_TRUE(r.representative.empty());
    EXPECT_EQ(decision(r, "a").planned_bytes, 1003u * 4);
    harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), 10)}});
    EXPECT_EQ(f.worst_case, r.arena_bytes);
    EXPECT_LT(f.needed, r.arena_bytes);
}

TEST(PassParametric, WithoutAnEstimateTheNominalExtentIsUsed) {
    Parameter w = scalar("w");
    PassOptions o = quiet();
    o.nominal_extent = 50;
    PassReport r;
    plan_arena(two_alive_together(var(w)), o, &r);
    ASSERT_EQ(r.planned_count(), 2);
    EXPECT_EQ(decision(r, "a").planned_bytes, 53u * 4);
    ASSERT_EQ(r.representative.size(), 1u);
    EXPECT_EQ(r.representative[0].value, 50);
    EXPECT_NE(r.representative[0].source.find("harena.nominal_extent"), std::string::npos);
}

TEST(PassParametric, ASizeThatFollowsALoopIsBoundedOverTheLoopWhereTheFrameOpens) {
    // c has i + 1 floats in iteration i of a loop over [0, w): the frame
    // reserves what the last iteration needs, computed from w alone.
    Parameter w = scalar("w");
    w.set_estimate(100);
    Expr i = Variable::make(Int(32), "i");
    Stmt loop = make_for("i", 0, var(w), ForType::Serial, DeviceAPI::None, heap("c", i + 1, store("c")));
    PassReport r;
    Stmt out = plan_arena(loop, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_FALSE(decision(r, "c").bounded);
    EXPECT_EQ(decision(r, "c").planned_bytes, 103u * 4);
    for (int call : {7, 5000}) {
        harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}});
        EXPECT_EQ(f.size(0), host_bytes(call)) << call;
    }
    // Where c is created, its size in that iteration is checked against the slice.
    EXPECT_NE(harena_test::text_of(out).find("halide_error_buffer_allocation_too_large(\"c\""), std::string::npos);
}

TEST(PassParametric, AProductOverALoopIsBoundedByTheProductOfItsExtentsMaxima) {
    // c has (u - i) x (v - i) floats in iteration i of a loop over [0, w):
    // each extent is largest at i = 0, and the frame reserves u * v floats.
    // It computes them as one product, not as the largest of the four
    // products of the extents' bounds that interval arithmetic gives (the
    // same value in code that every call runs and every build compiles).
    Parameter u = scalar("u"), v = scalar("v"), w = scalar("w");
    u.set_estimate(100);
    v.set_estimate(50);
    w.set_estimate(10);
    Expr i = Variable::make(Int(32), "i");
    Stmt c = Allocate::make("c", Float(32), MemoryType::Heap, {var(u) - i, var(v) - i}, const_true(), store("c"));
    Stmt loop = make_for("i", 0, var(w), ForType::Serial, DeviceAPI::None, c);
    PassReport r;
    Stmt out = plan_arena(loop, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_EQ(decision(r, "c").planned_bytes, (100u * 50 + 3) * 4);
    for (int call : {7, 300}) {
        harena_test::Frame f = harena_test::evaluate_frame(
            out, {{"u", make_const(Int(32), call)}, {"v", make_const(Int(32), call + 5)}, {"w", make_const(Int(32), 3)}});
        EXPECT_EQ(f.size(0), host_bytes((int64_t)call * (call + 5))) << call;
    }
    const Expr size = harena_test::let_value(out, "harena.size.0");
    ASSERT_TRUE(size.defined());
    class Products : public IRVisitor {
    public:
        int count = 0;
        using IRVisitor::visit;
        void visit(const Mul *op) override {
            count++;
            IRVisitor::visit(op);
        }
    } products;
    size.accept(&products);
    EXPECT_LE(products.count, 2) << size;  // the extents' product and the element size
}

TEST(PassParametric, AnExtentOverAScaleOfUnknownSignIsComputedEachCallWithoutItsNests) {
    // c's extent is what bounds inference writes for x / s, s of unknown
    // sign, over an output of extent w >= 0: 2 * |w - 1| + 1 in a nest of
    // min and max. Split at w's checked minimum, the frame computes it as 3
    // or w * 2 - 1, the same bytes in code LLVM compiles quickly.
    Parameter w = scalar("w");
    w.set_min_value(0);
    w.set_estimate(100);
    const Expr e = var(w);
    const Expr extent = max(1 - e, max(e, 1) - 1) - min(1 - e, min(e, 1) - 1) + 1;
    PassReport r;
    Stmt out = plan_arena(heap("c", extent, store("c")), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_EQ(decision(r, "c").planned_bytes, (199u + 3) * 4);
    for (int call : {0, 1, 2, 3, 5000}) {
        harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}});
        EXPECT_EQ(f.size(0), host_bytes(2 * std::abs(call - 1) + 1)) << call;
    }
    const Expr size = harena_test::let_value(out, "harena.size.0");
    ASSERT_TRUE(size.defined());
    std::ostringstream text;
    text << size;
    EXPECT_EQ(text.str().find("min("), std::string::npos) << size;
}

TEST(PassParametric, ASizeComputedInsideThePipelineIsLeftToTheRuntimeWithAReason) {
    // The loop's extent is loaded from memory: no call knows it before the
    // first stage runs.
    Expr loaded = Load::make(Int(32), "lut", 0, Buffer<>(), Parameter(), const_true(), ModulusRemainder());
    Expr i = Variable::make(Int(32), "i");
    Stmt loop = make_for("i", 0, loaded, ForType::Serial, DeviceAPI::None, heap("c", i + 1, store("c")));
    PassReport r;
    Stmt out = plan_arena(loop, quiet(), &r);
    ASSERT_EQ(r.buffers.size(), 1u);
    EXPECT_FALSE(decision(r, "c").planned);
    EXPECT_NE(decision(r, "c").reason.find("computed inside the pipeline"), std::string::npos)
        << decision(r, "c").reason;
    EXPECT_TRUE(out.same_as(loop));
}

TEST(PassParametric, EveryPlannedSizeCountsAsAtLeastOneAlignmentUnit) {
    // 4 floats each at the estimate: far less than an alignment unit, yet the
    // plan keeps them a unit apart, so that they stay ordered for any call.
    Parameter w = scalar("w");
    w.set_estimate(1);
    PassReport r;
    Stmt out = plan_arena(two_alive_together(var(w)), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 2);
    uint64_t a = decision(r, "a").offset, b = decision(r, "b").offset;
    EXPECT_EQ(std::max(a, b) - std::min(a, b), 256u);
    EXPECT_EQ(r.plan_bytes, 512u);
    harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), 1)}});
    EXPECT_EQ(f.size(0), 256u);
    EXPECT_EQ(f.size(1), 256u);
}

TEST(PassParametric, ThreeBuffersAliveTogetherStayApartInEveryCallAndEachOffsetNamesOnlyWhatDecidesIt) {
    Parameter w = scalar("w");
    w.set_estimate(100);
    Stmt s = heap("a", var(w), heap("b", var(w) * 2, heap("c", var(w) * 3, Block::make({store("a"), store("b"), store("c")}))));
    PassReport r;
    Stmt out = plan_arena(s, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 3);
    for (int call : {1, 100, 5000}) {
        harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}});
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                bool apart = f.offset(i) + f.size(i) <= f.offset(j) || f.offset(j) + f.size(j) <= f.offset(i);
                EXPECT_TRUE(apart) << "buffers " << i << " and " << j << " overlap in a call with w = " << call;
            }
        }
    }
    // The three are stacked: the top one starts where the middle one ends,
    // which already lies above the bottom one.
    int top = 0;
    for (int i = 1; i < 3; i++) {
        if (r.buffers[i].offset > r.buffers[top].offset) {
            top = i;
        }
    }
    std::string text = harena_test::text_of(out);
    size_t at = text.find("let harena.offset." + std::to_string(top) + " = ");
    ASSERT_NE(at, std::string::npos) << text;
    std::string definition = text.substr(at, text.find('\n', at) - at);
    int sizes_named = 0;
    for (size_t k = definition.find("harena.size."); k != std::string::npos; k = definition.find("harena.size.", k + 1)) {
        sizes_named++;
    }
    EXPECT_EQ(sizes_named, 1) << definition;
}

PassReport report_of(bool bounded) {
    PassReport r;
    r.pipeline_name = "pyr";
    r.bounded = bounded;
    r.arena_bytes = r.plan_bytes = 4096;
    r.lower_bound = 4000;
    harena::BufferDecision d;
    d.name = "level";
    d.planned = true;
    d.bounded = bounded;
    d.planned_bytes = 4000;
    if (!bounded) {
        d.unbounded_by = {"levels"};
        r.representative.push_back({"levels", 4, "its estimate"});
    }
    r.buffers.push_back(d);
    return r;
}

TEST(PassParametricReport, TheHeaderGivesAWorstCaseOnlyWhenThereIsOne) {
    std::string bounded = harena::plan_header(report_of(true));
    EXPECT_NE(bounded.find("#define PYR_ARENA_BOUNDED 1\n"), std::string::npos) << bounded;
    EXPECT_NE(bounded.find("#define PYR_ARENA_BYTES 4096ull"), std::string::npos) << bounded;
    EXPECT_EQ(bounded.find("AT_ESTIMATES"), std::string::npos) << bounded;
    std::string unbounded = harena::plan_header(report_of(false));
    EXPECT_NE(unbounded.find("#define PYR_ARENA_BOUNDED 0\n"), std::string::npos) << unbounded;
    EXPECT_NE(unbounded.find("#define PYR_ARENA_BYTES_AT_ESTIMATES 4096ull"), std::string::npos) << unbounded;
    EXPECT_EQ(unbounded.find("PYR_ARENA_BYTES "), std::string::npos) << unbounded;
    EXPECT_NE(unbounded.find("levels = 4 (its estimate)"), std::string::npos) << unbounded;
}

TEST(PassParametricReport, TheSummarySaysWhichBuffersAreSizedPerCallAndWhy) {
    std::string bounded = harena::plan_summary(report_of(true));
    EXPECT_EQ(bounded, "harena: pyr: planned 1 of 1 buffers into 4096 bytes (lower bound 4000, ratio 1.0240)");
    std::string unbounded = harena::plan_summary(report_of(false));
    EXPECT_NE(unbounded.find("4096 bytes at the representative sizes"), std::string::npos) << unbounded;
    EXPECT_NE(unbounded.find("1 sized per call (level)"), std::string::npos) << unbounded;
    EXPECT_NE(unbounded.find("levels (planned at its estimate, 4)"), std::string::npos) << unbounded;
}

}  // namespace

TEST(PassParametric, InGuardModeEverySliceIsFollowedByABandAndTheFrameStartsWithOne) {
    Parameter w = scalar("w");
    w.set_estimate(100);
    Stmt uses = Block::make({store("a"), store("b"), store("c"), Free::make("c"), Free::make("b"), Free::make("a")});
    Stmt s = heap("a", var(w), heap("b", var(w) * 2, heap("c", var(w) * 3, uses)));
    PassReport r;
    Stmt out = plan_arena(s, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 3);
    for (int call : {1, 100, 5000}) {
        const harena_test::Frame off = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}});
        // The band is the arena's, used as it is: a multiple of the arena's
        // alignment, which the entry checks is a multiple of the plan's
        // (harena/pipeline_abi.h), here 512 against a plan at 256.
        const uint64_t band = 512;
        const harena_test::Frame f = harena_test::evaluate_frame(out, {{"w", make_const(Int(32), call)}}, band);
        EXPECT_EQ(f.lets.at("harena.guard"), band);
        uint64_t top = 0;
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(f.size(i), off.size(i));
            EXPECT_GE(f.offset(i), band) << "buffer " << i << " starts inside the frame's first band";
            EXPECT_EQ(f.offset(i) % 256, 0u);
            top = std::max(top, f.offset(i) + f.size(i) + band);
            for (int j = i + 1; j < 3; j++) {
                bool apart =
                    f.offset(i) + f.size(i) + band <= f.offset(j) || f.offset(j) + f.size(j) + band <= f.offset(i);
                EXPECT_TRUE(apart) << "no band between buffers " << i << " and " << j << " with w = " << call;
            }
        }
        EXPECT_EQ(f.needed, top);
        EXPECT_EQ(off.lets.at("harena.guard"), 0u);
    }
    // Each buffer's slice is reported where it is created (harena_pipeline_slice:
    // band filled, the bands of dead slices it reuses checked), and the frame
    // ends with the check of its first band and of those not yet checked. A
    // host target reports no frees (PassLowered.SliceFreesAreReportedForDeviceTargetsOnly).
    const std::string text = harena_test::text_of(out);
    auto count = [&](const std::string &piece) {
        size_t n = 0;
        for (size_t k = text.find(piece); k != std::string::npos; k = text.find(piece, k + 1)) {
            n++;
        }
        return n;
    };
    for (int i = 0; i < 3; i++) {
        const std::string event = "harena.slices, (uint32)" + std::to_string(i) + ", ";
        EXPECT_EQ(count(event + "1, "), 1u) << "buffer " << i << " handed out\n"
                                            << text;
        EXPECT_EQ(count(event + "0, "), 0u) << "buffer " << i << " freed\n"
                                            << text;
    }
    EXPECT_EQ(count("harena_pipeline_slice("), 3u) << text;
    EXPECT_EQ(count("harena_pipeline_slices_end("), 1u) << text;
}
