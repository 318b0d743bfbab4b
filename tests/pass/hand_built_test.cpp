// The pass on statements built by hand, each isolating one rule: lifetimes
// in program order, loops keeping outer buffers alive, concurrency, bounds.
#include "arena_pass.h"
#include "ir_queries.h"
#include "pass_builders.h"
#include "halide_compat.h"
#include "solver/validator.h"

#include "harena/pipeline_abi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

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

// A scalar pipeline parameter, as Halide lowers one.
const Expr n = Variable::make(Int(32), "n", Parameter(Int(32), false, 0, "n"));
// One with no declared bound.
const Expr m = Variable::make(Int(32), "m", Parameter(Int(32), false, 0, "m"));

Stmt requirement(const Expr &condition) {
    return AssertStmt::make(condition, Call::make(Int(32), "halide_error_requirement_failed",
                                                  {StringImm::make("requirement"), StringImm::make("")},
                                                  Call::Extern));
}

Stmt with_bound(const Stmt &body) {
    return Block::make(requirement(n <= 1000), body);
}

bool bytes_overlap(const harena::BufferDecision &a, const harena::BufferDecision &b) {
    return a.offset < b.offset + b.planned_bytes && b.offset < a.offset + a.planned_bytes;
}

TEST(PassHandBuilt, BuffersNeverAliveTogetherShareBytes) {
    Stmt s = with_bound(Block::make(heap("a", n, Block::make(store("a"), Free::make("a"))), heap("b", n, store("b"))));
    PassReport r;
    plan_arena(s, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 2);
    EXPECT_EQ(decision(r, "a").offset, decision(r, "b").offset);
    // n <= 1000 floats plus Halide's 3-element read-past padding.
    EXPECT_EQ(decision(r, "a").planned_bytes, (1000u + 3u) * 4u);
    EXPECT_EQ(r.plan_bytes, (1000u + 3u) * 4u);
}

TEST(PassHandBuilt, AVectorTypedHostBufferIsSizedAtCodegensBytesPerElement) {
    // Halide's codegen sizes a heap allocation of a vector type at the lanes
    // times the scalar's bytes per element, and its loads and stores address
    // whole vectors: the slice holds as many.
    Stmt s = with_bound(Allocate::make("v", Float(32, 8), MemoryType::Heap, {n}, const_true(), store("v")));
    PassReport r;
    plan_arena(s, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_EQ(decision(r, "v").planned_bytes, (1000u + 3u) * 32u);
}

// Sets `op`'s padding where the release's Allocate has the field.
template<typename A>
auto set_padding(const A *op, int elements, int) -> decltype(op->padding, bool()) {
    const_cast<A *>(op)->padding = elements;  // a node no other statement shares
    return true;
}
template<typename A>
bool set_padding(const A *, int, long) {
    return false;
}

TEST(PassHandBuilt, AHostBufferKeepsThePaddingItsAllocationAsksFor) {
    // Where Halide widens a strided load into a dense one, it asks codegen
    // for elements past the end of the allocation, which the load reads.
    Stmt alloc = heap("p", n, store("p"));
    if (!set_padding(alloc.as<Allocate>(), 16, 0)) {
        GTEST_SKIP() << "this release's Allocate has no padding (codegen adds three elements)";
    }
    PassReport r;
    plan_arena(with_bound(alloc), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_EQ(decision(r, "p").planned_bytes, (1000u + 16u) * 4u);
}

TEST(PassHandBuilt, AConstantAllocationItsPaddingPushesOffTheStackIsPlanned) {
    // 16 KiB of floats fit Halide's stack; with the padding it declares,
    // Halide 21's codegen puts the allocation on the heap.
    Stmt alloc = Allocate::make("q", Float(32), MemoryType::Auto, {4096}, const_true(), store("q"));
    if (!set_padding(alloc.as<Allocate>(), 2, 0)) {
        GTEST_SKIP() << "this release's Allocate has no padding (its stack decision counts none)";
    }
    PassReport r;
    plan_arena(alloc, quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    EXPECT_EQ(decision(r, "q").planned_bytes, (4096u + 3u) * 4u);
}

TEST(PassHandBuilt, BufferUsedInsideASerialLoopStaysAliveForTheWholeLoop) {
    // `a` is last touched early in each iteration, `b` is allocated later in
    // the same iteration: in program order they look disjoint, but the next
    // iteration reads `a` again after `b` was written.
    Stmt body = Block::make(store("a"), heap("b", n, store("b")));
    Stmt loop = make_for("i", 0, 10, ForType::Serial, DeviceAPI::None, body);
    PassReport r;
    plan_arena(with_bound(heap("a", n, loop)), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 2);
    EXPECT_FALSE(bytes_overlap(decision(r, "a"), decision(r, "b")));
}

TEST(PassHandBuilt, BufferAllocatedInsideASerialLoopGetsOneSliceForEveryIteration) {
    Stmt loop = make_for("i", 0, 10, ForType::Serial, DeviceAPI::None, heap("c", n + Variable::make(Int(32), "i"), store("c")));
    PassReport r;
    Stmt out = plan_arena(with_bound(loop), quiet(), &r);
    ASSERT_EQ(r.planned_count(), 1);
    // The size follows the loop variable: the worst case takes its last value.
    EXPECT_EQ(decision(r, "c").planned_bytes, (1000u + 9u + 3u) * 4u);
    // c is no allocation but a name bound to its slice, freed by nobody.
    EXPECT_EQ(harena_test::find_allocate(out, "c"), nullptr);
    const Expr c = harena_test::slice_binding(out, "c");
    ASSERT_TRUE(c.defined()) << harena_test::text_of(out);
    EXPECT_TRUE(expr_uses_var(c, "harena.base")) << c;
    EXPECT_TRUE(expr_uses_var(c, "harena.offset.0")) << c;
    // Its slice holds the last iteration's size, computed where the frame
    // opens; each iteration's size is checked against it where c is created.
    std::string text = harena_test::text_of(out);
    EXPECT_NE(text.find("halide_error_buffer_allocation_too_large(\"c\""), std::string::npos) << text;
}

// Halide checks a heap allocation's bytes against the target's maximum
// buffer size where it allocates; a planned buffer, bound to its slice
// instead, is checked there by the pass, unless its worst case over the
// declared bounds is within the maximum already.
TEST(PassHandBuilt, APlannedHostBufferKeepsTheTargetsSizeLimitWhereItCanBeExceeded) {
    Stmt s = with_bound(heap("bounded", n, heap("free", m, Block::make(store("bounded"), store("free")))));
    PassOptions o = quiet();
    o.maximum_buffer_size = 1000000;
    PassReport r;
    Stmt out = plan_arena(s, o, &r);
    ASSERT_EQ(r.planned_count(), 2);
    std::vector<Expr> limits;
    for (const auto &args : harena_test::call_arguments(out, "halide_error_buffer_allocation_too_large")) {
        if (is_const(args[2])) {
            EXPECT_EQ(harena_test::name_in(args[0]), "free");
            EXPECT_TRUE(is_const(args[2], 1000000)) << args[2];
            limits.push_back(args[1]);
        }
    }
    ASSERT_EQ(limits.size(), 1u) << harena_test::text_of(out);
    // The check's condition holds up to the limit and fails beyond it, also
    // where 32-bit arithmetic would wrap around.
    class FindCheck : public IRVisitor {
    public:
        const AssertStmt *found = nullptr;
        using IRVisitor::visit;
        void visit(const AssertStmt *op) override {
            const Call *c = op->message.as<Call>();
            if (!found && c && c->name == "halide_error_buffer_allocation_too_large" && is_const(c->args[2])) {
                found = op;
            }
        }
    } find;
    out.accept(&find);
    const AssertStmt *check = find.found;
    ASSERT_NE(check, nullptr);
    for (auto [extent, ok] : {std::pair{250000, true}, {250001, false}, {1 << 30, false}, {-5, true}}) {
        Expr holds = simplify(substitute("m", make_const(Int(32), extent), check->condition));
        EXPECT_TRUE(is_const(holds, ok ? 1 : 0)) << extent << ": " << holds;
    }
}

// The size-limit checks of `out`, and the loop named `loop` in it.
struct ChecksAndLoop {
    Stmt out;  // holds what the pointers point into
    std::vector<const AssertStmt *> checks;
    const For *loop = nullptr;
};

ChecksAndLoop checks_and_loop(const Stmt &out, const std::string &loop) {
    class Find : public IRVisitor {
    public:
        ChecksAndLoop found;
        std::string loop;
        using IRVisitor::visit;
        void visit(const AssertStmt *op) override {
            const Call *c = op->message.as<Call>();
            if (c && c->name == "halide_error_buffer_allocation_too_large" && is_const(c->args[2])) {
                found.checks.push_back(op);
            }
        }
        void visit(const For *op) override {
            if (op->name == loop) {
                found.loop = op;
            }
            IRVisitor::visit(op);
        }
    } find;
    find.loop = loop;
    find.found.out = out;
    out.accept(&find);
    return find.found;
}

// The branch of `out` on harena.checks whose two sides each hold a copy of
// a parallel loop (the copy that reports slice events, then the one that
// does not), or null.
const IfThenElse *checks_and_unchecked_copies(const Stmt &out) {
    class Find : public IRVisitor {
    public:
        const IfThenElse *found = nullptr;
        using IRVisitor::visit;
        void visit(const IfThenElse *op) override {
            const Variable *on = op->condition.as<Variable>();
            const auto parallel = [](const Stmt &s) {
                const For *loop = s.defined() ? s.as<For>() : nullptr;
                return loop && loop->for_type == ForType::Parallel;
            };
            if (on && on->name == "harena.checks" && parallel(op->then_case) && parallel(op->else_case)) {
                found = op;
            }
            IRVisitor::visit(op);
        }
    } find;
    out.accept(&find);
    return find.found;
}

// The size-limit checks and the loop `i` of `loop` planned under a maximum
// buffer size of 10^6 bytes, where it has one buffer `m` sizes.
ChecksAndLoop planned_under_a_million(const Stmt &loop) {
    PassOptions o = quiet();
    o.maximum_buffer_size = 1000000;
    PassReport r;
    Stmt out = plan_arena(loop, o, &r);
    EXPECT_EQ(r.planned_count(), 1);
    ChecksAndLoop found = checks_and_loop(out, "i");
    EXPECT_EQ(found.checks.size(), 1u) << harena_test::text_of(out);
    return found;
}

TEST(PassHandBuilt, ASizeLimitCheckTheLoopDoesNotChangeIsMadeOnceBeforeTheLoopWhereItRuns) {
    // w has m floats in every iteration of a loop over [0, k): its check is
    // made before the loop, where the loop runs at all, so that a call whose
    // loop does not run is not refused for a buffer it never creates.
    const Expr k = Variable::make(Int(32), "k", Parameter(Int(32), false, 0, "k"));
    const ChecksAndLoop found =
        planned_under_a_million(make_for("i", 0, k, ForType::Serial, DeviceAPI::None, heap("w", m, store("w"))));
    ASSERT_EQ(found.checks.size(), 1u);
    ASSERT_NE(found.loop, nullptr);
    EXPECT_TRUE(checks_and_loop(found.loop->body, "").checks.empty());
    for (auto [extent, iterations, ok] :
         {std::tuple{250000, 3, true}, {250001, 3, false}, {250001, 0, true}, {1 << 30, 1, false}, {1 << 30, -2, true}}) {
        Expr holds = simplify(substitute({{"m", make_const(Int(32), extent)}, {"k", make_const(Int(32), iterations)}},
                                         found.checks[0]->condition));
        EXPECT_TRUE(is_const(holds, ok ? 1 : 0)) << extent << " x " << iterations << ": " << holds;
    }
}

TEST(PassHandBuilt, ASizeLimitCheckThatFollowsTheLoopStaysInIt) {
    const ChecksAndLoop found = planned_under_a_million(make_for(
        "i", 0, 10, ForType::Serial, DeviceAPI::None, heap("v", m + Variable::make(Int(32), "i"), store("v"))));
    ASSERT_NE(found.loop, nullptr);
    EXPECT_EQ(checks_and_loop(found.loop->body, "").checks.size(), 1u);
}

TEST(PassHandBuilt, AllocationsInParallelLoopsTakeASlotOfTheirLoop) {
    // q is allocated outside the loop and written by every iteration.
    Stmt loop =
        make_for("i", 0, 8, ForType::Parallel, DeviceAPI::None, Block::make(store("q"), heap("p", n, store("p"))));
    PassReport r;
    Stmt out = plan_arena(with_bound(heap("q", n, loop)), quiet(), &r);
    const harena::BufferDecision &p = decision(r, "p");
    EXPECT_TRUE(p.planned) << p.reason;
    EXPECT_EQ(p.slot_loop, "i");
    ASSERT_EQ(r.slot_pools.size(), 1u);
    EXPECT_EQ(r.slot_pools[0].loop, "i");
    EXPECT_EQ(r.slot_pools[0].slots, harena::PassOptions{}.parallel_slots);
    EXPECT_EQ(r.slot_pools[0].buffers, 1);
    EXPECT_GE(r.slot_pools[0].slot_bytes, p.planned_bytes);
    // The pool, every slot of one iteration's bytes, is in the frame, beside q.
    EXPECT_GE(r.arena_bytes, r.slot_pools[0].slot_bytes * r.slot_pools[0].slots + decision(r, "q").planned_bytes);
    // The loop is two: one whose tasks report slice events, run where
    // checks are on, and one with none. Each task takes a slot from the
    // runtime and gives it back after; the pool is counted once.
    const std::string text = harena_test::text_of(out);
    const IfThenElse *versions = checks_and_unchecked_copies(out);
    ASSERT_NE(versions, nullptr) << text;
    EXPECT_EQ(harena_test::count_calls(versions->else_case, "harena_pipeline_slice"), 0) << text;
    for (const Stmt &copy : {versions->then_case, versions->else_case}) {
        EXPECT_EQ(harena_test::count_calls(copy, "harena_slot_take"), 1) << text;
        EXPECT_EQ(harena_test::count_calls(copy, "harena_slot_give"), 1) << text;
        // A task without a slot takes one heap block of the slot's bytes,
        // where p lies at its offset as in a slot.
        const Allocate *heap_block = harena_test::find_allocate(copy, "harena.slot_heap.1");
        ASSERT_NE(heap_block, nullptr) << text;
        EXPECT_TRUE(heap_block->new_expr.defined());
        EXPECT_EQ(heap_block->free_function, "halide_free");
        EXPECT_EQ(harena_test::count_calls(copy, "halide_malloc"), 1) << text;
    }
    EXPECT_EQ(harena_test::count_calls(out, "harena_pipeline_slots"), 1) << text;
    EXPECT_EQ(harena_test::count_calls(out, "halide_mutex_lock"), 0) << text;
    // Slice events for guard mode and memory checkers: q handed out, each
    // task's slot opened and p handed out in it (a host plan reports no frees).
    std::vector<int64_t> events;
    for (const std::vector<Expr> &args : harena_test::call_arguments(out, "harena_pipeline_slice")) {
        ASSERT_EQ(args.size(), 7u);
        events.push_back(*as_const_int(args[3]));
    }
    std::sort(events.begin(), events.end());
    EXPECT_EQ(events, (std::vector<int64_t>{HARENA_SLICE_HANDED_OUT, HARENA_SLICE_HANDED_OUT, HARENA_SLICE_SLOT_OPENED}))
        << text;
    EXPECT_EQ(harena_test::find_allocate(out, "p"), nullptr);
    // A buffer used inside the parallel loop but allocated outside is planned.
    EXPECT_TRUE(decision(r, "q").planned);
    EXPECT_TRUE(decision(r, "q").slot_loop.empty());
}

TEST(PassHandBuilt, WithAnArenaArgumentThePipelineKeepsItsSlotsUnderAMutex) {
    Stmt loop = make_for("i", 0, 8, ForType::Parallel, DeviceAPI::None, heap("p", n, store("p")));
    PassOptions options = quiet();
    options.arena_argument = "arena";
    PassReport r;
    Stmt out = plan_arena(with_bound(loop), options, &r);
    ASSERT_TRUE(decision(r, "p").planned) << decision(r, "p").reason;
    const std::string text = harena_test::text_of(out);
    // A take and a give, each under the lock.
    EXPECT_EQ(harena_test::count_calls(out, "halide_mutex_lock"), 2) << text;
    EXPECT_EQ(harena_test::count_calls(out, "halide_mutex_unlock"), 2) << text;
    for (const char *runtime_call : {"harena_slot_pool_init", "harena_slot_take", "harena_slot_give",
                                     "harena_pipeline_slots"}) {
        EXPECT_EQ(harena_test::count_calls(out, runtime_call), 0) << runtime_call << " in\n"
                                                                  << text;
    }
}

TEST(PassHandBuilt, BuffersOfAForksBranchesNeverShareBytes) {
    // Two branches that run concurrently, each with a buffer alive in a part
    // of it: apart in program order, alive together in time.
    Stmt fork = Fork::make(heap("a", n, store("a")), heap("b", n, store("b")));
    PassReport r;
    plan_arena(with_bound(fork), quiet(), &r);
    const harena::BufferDecision &a = decision(r, "a"), &b = decision(r, "b");
    ASSERT_TRUE(a.planned && b.planned) << a.reason << b.reason;
    EXPECT_FALSE(bytes_overlap(a, b)) << "a at " << a.offset << ", b at " << b.offset;
}

TEST(PassHandBuilt, ParallelLoopsOfAGpuPipelineLeaveTheirBuffersToTheRuntimeWithAReason) {
    Stmt loop = make_for("i", 0, 8, ForType::Parallel, DeviceAPI::None, heap("p", n, store("p")));
    PassOptions gpu = quiet();
    gpu.device_target = true;
    PassReport r;
    plan_arena(with_bound(loop), gpu, &r);
    EXPECT_FALSE(decision(r, "p").planned);
    EXPECT_NE(decision(r, "p").reason.find("parallel loop of a GPU pipeline"), std::string::npos)
        << decision(r, "p").reason;
}

TEST(PassHandBuilt, WithBoundsRequiredAnUnboundedSizeIsACompileErrorNamingBufferAndSymbol) {
    Stmt s = with_bound(heap("d", m * 4, store("d")));
    PassOptions strict = quiet();
    strict.unbounded = harena::Unbounded::Error;
    try {
        plan_arena(s, strict);
        FAIL() << "expected a compile error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        EXPECT_NE(msg.find("'d'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("nothing bounds 'm'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("add_requirement"), std::string::npos) << msg;
        EXPECT_NE(msg.find("harena.max.<scalar>=N"), std::string::npos) << msg;
        EXPECT_NE(msg.find("harena.require_bounds=1"), std::string::npos) << msg;
    }
    PassOptions lenient = quiet();
    lenient.unbounded = harena::Unbounded::Runtime;
    PassReport r;
    Stmt out = plan_arena(s, lenient, &r);
    EXPECT_FALSE(decision(r, "d").planned);
    EXPECT_NE(decision(r, "d").reason.find("runtime allocator"), std::string::npos);
    EXPECT_TRUE(out.same_as(s)) << "nothing planned, nothing rewritten";
}

TEST(PassHandBuilt, TheFrameOpensAfterTheChecksAndBeforeTheFirstPlannedBuffer) {
    Stmt s = with_bound(Block::make(requirement(0 <= n), heap("e", n, store("e"))));
    Stmt out = plan_arena(s, quiet());
    std::string text = harena_test::text_of(out);
    size_t checks = text.rfind("halide_error_requirement_failed");
    size_t enter = text.find("harena_pipeline_enter");
    size_t alloc = text.find("allocate e");
    ASSERT_NE(enter, std::string::npos) << text;
    EXPECT_LT(checks, enter) << text;
    EXPECT_LT(enter, alloc) << text;
    EXPECT_EQ(harena_test::count_destructors(out, "harena_pipeline_exit_as_destructor"), 1) << text;
    // e's size is known where the frame opens, and its slice is exactly that
    // size: no check where it is created (one that could not fail).
    EXPECT_EQ(text.find("halide_error_buffer_allocation_too_large(\"e\""), std::string::npos) << text;
}

TEST(PassHandBuilt, OffsetsFollowThisRunsSizes) {
    // a and b are alive together; b rests on a in the plan, so in a run with
    // a smaller n it starts where a ends for that n, not at a's worst case.
    Stmt s = with_bound(heap("a", n, heap("b", n, Block::make(store("a"), store("b")))));
    PassReport r;
    std::string text = harena_test::text_of(plan_arena(s, quiet(), &r));
    ASSERT_EQ(r.planned_count(), 2);
    const auto &upper = decision(r, "a").offset > decision(r, "b").offset ? decision(r, "a") : decision(r, "b");
    const auto &lower = &upper == &decision(r, "a") ? decision(r, "b") : decision(r, "a");
    EXPECT_EQ(lower.offset, 0u);
    EXPECT_GE(upper.offset, lower.planned_bytes);
    // The upper buffer's offset is computed from n where the frame opens.
    std::string key = "let harena.offset." + std::to_string(upper.name == "a" ? 0 : 1) + " = ";
    size_t at = text.find(key);
    ASSERT_NE(at, std::string::npos) << text;
    std::string definition = text.substr(at, text.find('\n', at) - at);
    std::string lower_size = "harena.size." + std::to_string(lower.name == "a" ? 0 : 1);
    EXPECT_NE(definition.find(lower_size), std::string::npos) << definition;
    size_t size_at = text.find("let " + lower_size + " = ");
    ASSERT_NE(size_at, std::string::npos) << text;
    EXPECT_NE(text.substr(size_at, text.find('\n', size_at) - size_at).find("int64(n)"), std::string::npos) << text;
}

TEST(PassHandBuilt, SmallConstantAllocationsStayOnTheStack) {
    Stmt s = Allocate::make("t", Float(32), MemoryType::Auto, {16}, const_true(), store("t"));
    PassReport r;
    Stmt out = plan_arena(s, quiet(), &r);
    EXPECT_TRUE(r.buffers.empty());
    EXPECT_TRUE(out.same_as(s));
}

TEST(PassHandBuilt, ThePlanInTheReportPassesTheValidator) {
    // Five overlapping buffers of different sizes in a chain.
    Stmt s = store("v4");
    for (int i = 4; i >= 0; i--) {
        std::string name = "v" + std::to_string(i);
        s = heap(name, n * (i + 1), Block::make(store(name), s));
    }
    PassReport r;
    plan_arena(with_bound(s), quiet(), &r);
    harena::Problem p;
    harena::Plan plan;
    for (const auto &b : r.buffers) {
        p.buffers.push_back({b.name, b.begin, b.end, b.planned_bytes, 256});
        plan.offsets.push_back(b.offset);
    }
    plan.arena_bytes = r.plan_bytes;
    harena::Validation v = harena::validate(p, plan);
    EXPECT_TRUE(v.ok) << v.error;
    EXPECT_EQ(r.planned_count(), 5);
}

}  // namespace
