// The pass on statements Halide itself lowers from small pipelines, for the
// host and for CUDA (lowering CUDA needs no GPU).
#include "arena_pass.h"
#include "capturing_pass.h"
#include "halide_compat.h"
#include "ir_queries.h"
#include "pass_builders.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::Lowered;

// A three-stage chain whose sizes follow the output and a scalar k.
Lowered lower_chain(const Target &target) {
    ImageParam input(Float(32), 2, "input");
    Param<int> k("k", 4, 1, 64);
    Func a("a"), b("b"), out("out");
    Var x("x"), y("y");
    a(x, y) = input(x, y) * k;
    b(x, y) = a(x, y) + a(x + 1, y);
    out(x, y) = b(x, y) + b(x, y + 1);
    Pipeline p(out);
    p.add_requirement(out.output_buffer().dim(0).extent() <= 256 && out.output_buffer().dim(1).extent() <= 128);
    harena_test::schedule_chain({a, b}, out, target, x, y);
    return harena_test::lower_for(p, {input, k}, "chain", target);
}

TEST(PassLowered, HostChainPlansEveryHeapIntermediate) {
    Lowered l = lower_chain(get_host_target().with_feature(Target::UserContext));
    ASSERT_EQ(l.report.planned_count(), 2);
    for (const harena::BufferDecision &b : l.report.buffers) {
        // Bound to its slice: no Allocate, so nothing allocates or frees it.
        EXPECT_EQ(harena_test::find_allocate(l.stmt, b.name), nullptr) << b.name;
        const Expr slice = harena_test::slice_binding(l.stmt, b.name);
        ASSERT_TRUE(slice.defined()) << b.name;
        EXPECT_TRUE(expr_uses_var(slice, "harena.base")) << slice;
    }
    // a is (256 + 1) x 129 floats at most, plus the read-past padding.
    EXPECT_EQ(l.report.buffers[0].planned_bytes, (257u * 129u + 3u) * 4u);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "harena_pipeline_enter"), 1);
}

TEST(PassLowered, AHostBufferReadWithAStrideKeepsThePaddingCodegenGivesIt) {
    // A decimation by 5 of a stage computed at root, vectorized: Halide 21
    // widens the strided load into dense ones and pads the allocation by
    // stride - 1 elements, which they read; Halide 14 pads every heap
    // allocation by three.
    ImageParam input(Float(32), 2, "input");
    Func g("g"), out("out");
    Var x("x"), y("y");
    g(x, y) = input(x, y) * 2.0f;
    out(x, y) = g(5 * x, y);
    g.compute_root();
    out.vectorize(x, 8);
    Pipeline p(out);
    p.add_requirement(out.output_buffer().dim(0).extent() <= 64 && out.output_buffer().dim(1).extent() <= 16);
    Lowered l = harena_test::lower_for(p, {input}, "decimate", get_host_target().with_feature(Target::UserContext));
    ASSERT_EQ(l.report.planned_count(), 1);
    const uint64_t padding = harena::halide_major >= 21 ? 4 : 3;
    // g is 5 * 63 + 1 by 16 floats at most.
    EXPECT_EQ(l.report.buffers[0].planned_bytes, (316u * 16u + padding) * 4u);
}

TEST(PassLowered, CudaChainBindsDeviceBuffersAndDropsEveryAllocationAndFree) {
    Lowered l = lower_chain(get_host_target().with_feature(Target::CUDA).with_feature(Target::UserContext));
    ASSERT_EQ(l.report.planned_count(), 2);
    std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_device_malloc"), 0) << text;
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_device_free"), 0) << text;
    EXPECT_EQ(harena_test::count_destructors(l.stmt, "halide_device_free_as_destructor"), 0) << text;
    EXPECT_EQ(harena_test::count_destructors(l.stmt, "harena_pipeline_exit_as_destructor"), 1) << text;
    // Their host sides, never touched, are no allocations: nothing would
    // allocate, check or free them on any call.
    for (const harena::BufferDecision &b : l.report.buffers) {
        EXPECT_EQ(harena_test::find_allocate(l.stmt, b.name), nullptr) << b.name << "\n"
                                                                       << text;
        EXPECT_TRUE(harena_test::slice_binding(l.stmt, b.name).defined()) << b.name;
    }
    // Both buffers are created bound to their slices of the frame, at offsets
    // computed for this run's sizes where the frame opens.
    for (const char *offset : {"harena.base + harena.offset.0", "harena.base + harena.offset.1"}) {
        EXPECT_NE(text.find(offset), std::string::npos) << offset << "\n"
                                                        << text;
    }
    EXPECT_LT(text.find("let harena.offset.0"), text.find("harena_pipeline_enter")) << text;
    EXPECT_NE(text.find("halide_cuda_device_interface()"), std::string::npos);
}

// harena_pipeline_slice events by their `live` argument: [0] freed, [1] handed out.
std::vector<int> slice_events(const Stmt &s) {
    struct Count : public IRVisitor {
        std::vector<int> live{0, 0};
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->name == "harena_pipeline_slice") {
                live.at(*as_const_int(op->args.at(3)) != 0 ? 1 : 0)++;
            }
            IRVisitor::visit(op);
        }
    } count;
    s.accept(&count);
    return count.live;
}

// A memory checker must see each device slice die; guard mode, all a host
// target's checks ask for, checks a band when a later slice reuses its
// bytes or when the frame ends, so host targets report no frees.
TEST(PassLowered, SliceFreesAreReportedForDeviceTargetsOnly) {
    Lowered host = lower_chain(get_host_target().with_feature(Target::UserContext));
    EXPECT_EQ(slice_events(host.stmt), (std::vector<int>{0, 2})) << harena_test::text_of(host.stmt);
    Lowered cuda = lower_chain(get_host_target().with_feature(Target::CUDA).with_feature(Target::UserContext));
    EXPECT_EQ(slice_events(cuda.stmt), (std::vector<int>{2, 2})) << harena_test::text_of(cuda.stmt);
    for (const Lowered *l : {&host, &cuda}) {
        EXPECT_EQ(harena_test::count_calls(l->stmt, "harena_pipeline_slices_end"), 1);
    }
}

TEST(PassLowered, CudaChainTakesArgumentBuffersDeviceMemoryOutsideTheFrame) {
    Lowered l = lower_chain(get_host_target().with_feature(Target::CUDA).with_feature(Target::UserContext));
    std::string text = harena_test::text_of(l.stmt);
    // The input is uploaded and the output allocated on the device inside
    // the pipeline; the caller keeps both after the frame pops. (The output
    // may be out$2 and so on: Halide numbers repeated Func names.)
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_copy_to_device"), 0) << text;
    const auto calls = harena_test::call_arguments(l.stmt, "harena_argument_copy_to_device");
    ASSERT_EQ(calls.size(), 2u) << text;
    std::vector<std::string> buffers;
    for (const std::vector<Expr> &args : calls) {
        ASSERT_EQ(args.size(), 3u) << text;
        EXPECT_EQ(harena_test::name_in(args[0]), "get_user_context") << text;
        buffers.push_back(harena_test::name_in(args[1]));
        EXPECT_EQ(harena_test::name_in(args[2]), "halide_cuda_device_interface") << text;
    }
    EXPECT_EQ(buffers[0], "input.buffer") << text;
    EXPECT_EQ(buffers[1].rfind("out", 0), 0u) << buffers[1] << "\n"
                                              << text;
}

TEST(PassLowered, AnAllGpuChainIsCapturableAsAGraphAndAHostOneIsNot) {
    Lowered cuda = lower_chain(get_host_target().with_feature(Target::CUDA).with_feature(Target::UserContext));
    EXPECT_TRUE(cuda.report.capturable);
    // The pipeline declares it at entry (HARENA_PIPELINE_CAPTURABLE): its
    // name, then the device interface, not a null one.
    const auto enter = harena_test::call_arguments(cuda.stmt, "harena_pipeline_enter");
    ASSERT_EQ(enter.size(), 1u);
    ASSERT_GE(enter[0].size(), 3u);
    EXPECT_EQ(harena_test::name_in(enter[0][1]), "chain");
    EXPECT_EQ(harena_test::name_in(enter[0][2]), "halide_cuda_device_interface");
    Lowered host = lower_chain(get_host_target().with_feature(Target::UserContext));
    EXPECT_FALSE(host.report.capturable);
}

// A zero-dimensional Func on the GPU (a total every pixel then reads) has a
// buffer with no shape at all; it is planned and bound like any other.
TEST(PassLowered, AZeroDimensionalGpuFuncIsPlannedAndBound) {
    ImageParam input(Float(32), 2, "input");
    Func total("total"), out("out");
    Var x("x"), y("y"), xi, yi;
    RDom r(0, 16);
    total() = 0.0f;
    total() += input(r, 0);
    out(x, y) = input(x, y) * total();
    total.compute_root().gpu_single_thread();
    total.update().gpu_single_thread();
    out.gpu_tile(x, y, xi, yi, 8, 8);
    out.output_buffer().set_estimates({{0, 64}, {0, 64}});
    Pipeline p(out);
    Lowered l = harena_test::lower_for(p, {input}, "total", get_host_target().with_feature(Target::CUDA));
    ASSERT_EQ(l.report.planned_count(), 1) << l.report.buffers[0].reason;
    EXPECT_EQ(l.report.buffers[0].planned_bytes, 4u);
    EXPECT_TRUE(l.report.capturable);
    const std::string text = harena_test::text_of(l.stmt);
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_device_malloc"), 0) << text;
    EXPECT_EQ(harena_test::count_destructors(l.stmt, "halide_device_free_as_destructor"), 0) << text;
}

TEST(PassLowered, ParamMaximumBoundsTheSizes) {
    ImageParam input(Float(32), 1, "input");
    Param<int> k("k", 4, 1, 100);
    Func wide("wide"), out("out");
    Var x("x"), c("c");
    RDom r(0, k);
    wide(c, x) = input(x) * c;
    out(x) = sum(wide(r, x));
    wide.compute_root().bound_extent(c, 100);
    Pipeline p(out);
    p.add_requirement(out.output_buffer().dim(0).extent() <= 50);
    Lowered l = harena_test::lower_for_host(p, {input, k}, "wide");
    ASSERT_EQ(l.report.planned_count(), 1);
    EXPECT_EQ(l.report.buffers[0].planned_bytes, (100u * 50u + 3u) * 4u);
}

}  // namespace
