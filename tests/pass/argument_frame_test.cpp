// The arena as a buffer argument (PassOptions::arena_argument): the planned
// statement takes its frame from the argument's memory, checks its size
// through Halide's error channel and calls nothing of halide-arena's runtime.
#include "capturing_pass.h"
#include "ir_queries.h"
#include "pass_builders.h"

#include <gtest/gtest.h>

#include <functional>

using namespace Halide;
using namespace Halide::Internal;

namespace {

using harena_test::Lowered;

// Names of the runtime's entry points the statement calls.
class HarenaCalls : public IRVisitor {
public:
    std::vector<std::string> names;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->name.rfind("harena_", 0) == 0) {
            names.push_back(op->name);
        }
        IRVisitor::visit(op);
    }
};

// A three-stage chain sized by its output, estimates only, planned with its
// arena in the uint8 input `arena`.
Lowered lower_chain_with_arena_argument(const Target &target) {
    ImageParam input(Float(32), 2, "input"), arena(UInt(8), 1, "arena");
    Func a("a"), b("b"), out("out");
    Var x("x"), y("y");
    a(x, y) = input(x, y) * 2.0f;
    b(x, y) = a(x, y) + a(x + 1, y);
    out(x, y) = b(x, y) + b(x, y + 1);
    out.set_estimates({{0, 256}, {0, 128}});
    harena_test::schedule_chain({a, b}, out, target, x, y);
    Pipeline p(out);
    harena::PassOptions options = harena_test::quiet();
    options.arena_argument = "arena";
    return harena_test::lower_for(p, {input, arena}, "chain", target, options);
}

// `requirements`: the size check, for host plans the check that the
// argument has host memory, and the bounds query's two (one dimension, an
// answer an extent holds).
void expect_planned_in_argument(const Lowered &l, const std::string &base_from, int requirements) {
    ASSERT_EQ(l.report.planned_count(), 2);
    HarenaCalls calls;
    l.stmt.accept(&calls);
    EXPECT_TRUE(calls.names.empty()) << calls.names.front();
    const Expr base = harena_test::let_value(l.stmt, "harena.base");
    ASSERT_TRUE(base.defined());
    EXPECT_EQ(harena_test::count_calls(Evaluate::make(base), base_from), 1) << base;
    // Checked through Halide's own report of a failed requirement.
    EXPECT_EQ(harena_test::count_calls(l.stmt, "halide_error_requirement_failed"), requirements);
    EXPECT_FALSE(l.report.capturable);
}

TEST(PassArgument, HostPlanLiesInTheArgumentsHostMemory) {
    Lowered l = lower_chain_with_arena_argument(get_host_target());
    expect_planned_in_argument(l, Call::buffer_get_host, 4);
}

TEST(PassArgument, CudaPlanLiesInTheArgumentsDeviceMemoryAllocatedWhereItHasNone) {
    Lowered l = lower_chain_with_arena_argument(get_host_target().with_feature(Target::CUDA));
    expect_planned_in_argument(l, Call::buffer_get_device, 3);
    // The graph cache takes arenas it knows, not buffers.
    EXPECT_NE(l.report.not_capturable.find("argument 'arena'"), std::string::npos) << l.report.not_capturable;
    // The argument's device memory, allocated by the first call that finds none.
    bool mallocs_argument = false;
    for (const std::vector<Expr> &args : harena_test::call_arguments(l.stmt, "halide_device_malloc")) {
        mallocs_argument |= harena_test::name_in(args[0]) == "arena.buffer";
    }
    EXPECT_TRUE(mallocs_argument);
}

// A bounds query on the arena is answered once, into the arena's own
// buffer, before Halide's pipeline branch, which then skips the call.
TEST(PassArgument, ABoundsQueryOnTheArenaIsAnsweredAndRunsNothing) {
    Lowered l = lower_chain_with_arena_argument(get_host_target());
    const std::vector<std::vector<Expr>> inits = harena_test::call_arguments(l.stmt, Call::buffer_init);
    int answers = 0;
    for (const std::vector<Expr> &args : inits) {
        if (harena_test::name_in(args[0]) == "arena.buffer") {
            answers++;
            // uint8 of one dimension, min 0, stride 1.
            EXPECT_TRUE(is_const(args[5], halide_type_uint) && is_const(args[6], 8) && is_const(args[7], 1));
            const Call *shape = args[8].as<Call>();
            ASSERT_TRUE(shape && shape->is_intrinsic(Call::make_struct));
            EXPECT_TRUE(is_const_zero(shape->args[0]));
            EXPECT_TRUE(is_const_one(shape->args[2]));
        }
    }
    EXPECT_EQ(answers, 1);
    int branches_skipping_it = 0;
    std::function<void(const Stmt &)> walk = [&](const Stmt &s) {
        if (const Block *b = s.as<Block>()) {
            walk(b->first);
            walk(b->rest);
        } else if (const LetStmt *let = s.as<LetStmt>()) {
            walk(let->body);
        } else if (const IfThenElse *branch = s.as<IfThenElse>(); branch && harena::is_pipeline_branch(branch)) {
            for (const std::vector<Expr> &args :
                 harena_test::call_arguments(Evaluate::make(branch->condition), Call::buffer_is_bounds_query)) {
                branches_skipping_it += harena_test::name_in(args[0]) == "arena.buffer";
            }
        }
    };
    walk(l.stmt);
    EXPECT_EQ(branches_skipping_it, 1) << "the pipeline branch does not skip a query on the arena";
}

}  // namespace
