// Buffers of parallel loops and async bodies, planned into an arena
// argument from JIT (harena/jit.h): CPU schedules in the style of Halide's
// apps (parallel strips with stages computed inside them, nested parallel
// loops, async producers), realized repeatedly with new inputs at 1, 2 and
// 8 threads and compared bit for bit with the same pipeline unplanned, with
// the heap calls counted.
#include "harena/jit.h"
#include "jit_heap.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace Halide;
using namespace harena_test;

// A pipeline and its input, built twice: once planned, once not.
struct Case {
    ImageParam input{Float(32), 2, "input"};
    Func output{"output"};
};

// A blur computed per strip of rows, as Halide's apps schedule one: the
// strips in parallel, blur_x inside each strip, vectorized.
void strip_blur(Case &c) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(c.input);
    Func blur_x("blur_x"), sharp("sharp");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
    sharp(x, y) = 2.0f * clamped(x, y) - (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
    c.output(x, y) = sharp(x, y) * 0.5f + clamped(x, y) * 0.5f;
    c.output.split(y, yo, yi, 16).parallel(yo).vectorize(x, 8);
    blur_x.compute_at(c.output, yo).vectorize(x, 8);
    sharp.compute_at(c.output, yi).vectorize(x, 8);
}

// Two parallel levels: strips in parallel, and inside each strip a stage
// whose own rows run in parallel with a buffer per row.
void nested_parallel(Case &c) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func clamped = BoundaryConditions::mirror_interior(c.input);
    Func row("row"), col("col"), mid("mid");
    row(x, y) = clamped(x - 2, y) + clamped(x + 2, y) + clamped(x, y) * 2.0f;
    col(x, y) = row(x, y - 1) + row(x, y + 1);
    mid(x, y) = col(x, y) * 0.25f + clamped(x, y);
    c.output(x, y) = mid(x, y) - mid(x + 1, y);
    c.output.split(y, yo, yi, 32).parallel(yo);
    mid.compute_at(c.output, yo).parallel(y);
    row.compute_at(mid, y);
    col.compute_at(mid, y);
}

// An async producer: its buffer and the consumer's run concurrently.
void async_producer(Case &c) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(c.input);
    Func a("a"), b("b");
    a(x, y) = clamped(x, y) * 3.0f + 1.0f;
    b(x, y) = a(x - 1, y) + a(x + 1, y);
    c.output(x, y) = b(x, y - 1) + b(x, y + 1);
    c.output.split(y, yo, yi, 8).parallel(yo);
    b.compute_at(c.output, yo).store_at(c.output, yo);
    a.compute_at(c.output, yo).async();
}

// A reduction per tile, the tiles in parallel: a scratch buffer in each
// task, too large for Halide to keep on the stack.
void tiled_reduction(Case &c) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
    Func clamped = BoundaryConditions::repeat_edge(c.input);
    Func bins("bins"), local("local");
    RDom r(-2, 5, -2, 5);
    local(x, y) = 0.0f;
    local(x, y) += clamped(x + r.x, y + r.y) * (1.0f + r.x * 0.125f);
    c.output(x, y) = local(x, y) / 25.0f;
    c.output.tile(x, y, xo, yo, xi, yi, 128, 64).fuse(xo, yo, t).parallel(t);
    local.compute_at(c.output, t);
}

struct Schedule {
    const char *name;
    std::function<void(Case &)> build;
};
const std::vector<Schedule> kSchedules = {
    {"strip_blur", strip_blur},
    {"nested_parallel", nested_parallel},
    {"async_producer", async_producer},
    {"tiled_reduction", tiled_reduction},
};

Buffer<float> new_input(int call, int width, int height) {
    Buffer<float> image(width, height);
    std::mt19937 random(500 + call);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    image.for_each_value([&](float &v) { v = value(random); });
    return image;
}

struct Param {
    Schedule schedule;
    int threads;
};

void PrintTo(const Param &p, std::ostream *os) {
    *os << p.schedule.name << " at " << p.threads << " threads";
}

class ParallelJit : public ::testing::TestWithParam<Param> {};

TEST_P(ParallelJit, PlannedMatchesUnplannedOnEveryCallAndStopsAllocating) {
    const Param param = GetParam();
    const Target target = get_host_target();
    Case plain, planned;
    param.schedule.build(plain);
    param.schedule.build(planned);
    planned.input.set_estimates({{0, 256}, {0, 192}});
    planned.output.set_estimates({{0, 256}, {0, 192}});
    Pipeline plain_pipeline(plain.output), planned_pipeline(planned.output);
    ImageParam arena(UInt(8), 1, "arena");
    harena::JitPlanOptions options;
    options.pipeline_name = param.schedule.name;
    const harena::ArgumentPlan plan = harena::plan_into_argument(planned_pipeline, arena, target, options);
    ASSERT_GT(plan.bytes_at_estimates, 0u);
    EXPECT_GT(plan.slot_pools, 0) << "no parallel loop's buffers were planned in slots";
    EXPECT_EQ(plan.buffers_planned, plan.buffers) << plan.unplanned;
    Buffer<uint8_t> memory(static_cast<int>(plan.bytes_at_estimates));
    arena.set(memory);
    count_heap_allocations(planned_pipeline);
    const ScopedJitThreads threads(param.threads);
    Buffer<float> expected(256, 192), actual(256, 192);
    for (int call = 0; call < 6; call++) {
        SCOPED_TRACE("call " + std::to_string(call));
        Buffer<float> input = new_input(call, 256, 192);
        plain.input.set(input);
        planned.input.set(input);
        expected.fill(-2.0f);
        actual.fill(-1.0f);
        plain_pipeline.realize(expected, target);
        jit_heap_allocations = 0;
        planned_pipeline.realize(actual, target);
        ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), expected.size_in_bytes()));
        if (call > 0) {
            EXPECT_EQ(jit_heap_allocations.load(), 0) << "heap allocations in a steady-state call";
        }
    }
}

// With no slots every task allocates its buffers from the heap, as Halide
// would: the fallback of a task that finds every slot taken, on every task.
TEST(ParallelJitFallback, TasksWithoutASlotAllocateFromTheHeapAndMatch) {
    const Target target = get_host_target();
    Case plain, planned;
    strip_blur(plain);
    strip_blur(planned);
    planned.input.set_estimates({{0, 256}, {0, 192}});
    planned.output.set_estimates({{0, 256}, {0, 192}});
    Pipeline plain_pipeline(plain.output), planned_pipeline(planned.output);
    ImageParam arena(UInt(8), 1, "arena");
    harena::JitPlanOptions options;
    options.parallel_slots = 0;
    const harena::ArgumentPlan plan = harena::plan_into_argument(planned_pipeline, arena, target, options);
    ASSERT_EQ(plan.slot_pools, 1);
    Buffer<uint8_t> memory(static_cast<int>(plan.bytes_at_estimates));
    arena.set(memory);
    count_heap_allocations(planned_pipeline);
    const ScopedJitThreads threads(4);
    Buffer<float> expected(256, 192), actual(256, 192);
    for (int call = 0; call < 3; call++) {
        Buffer<float> input = new_input(call, 256, 192);
        plain.input.set(input);
        planned.input.set(input);
        plain_pipeline.realize(expected, target);
        jit_heap_allocations = 0;
        planned_pipeline.realize(actual, target);
        ASSERT_EQ(0, std::memcmp(expected.data(), actual.data(), expected.size_in_bytes())) << "call " << call;
        // One block per strip (12 strips of 16 rows) for the one buffer of the strips.
        EXPECT_GE(jit_heap_allocations.load(), 12) << "call " << call;
    }
}

std::vector<Param> params() {
    std::vector<Param> out;
    for (const Schedule &s : kSchedules) {
        for (int threads : {1, 2, 8}) {
            out.push_back({s, threads});
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Schedules, ParallelJit, ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<Param> &info) {
                             return std::string(info.param.schedule.name) + "_" + std::to_string(info.param.threads) +
                                    "_threads";
                         });

}  // namespace
