#include "rewrite/size_limit.h"

#include "host_allocation.h"
#include "runtime_calls.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr uint64_t k2To32 = (uint64_t)1 << 32;

// Codegen's form: the product built in 64 bits with its high half tracked,
// so that an overflow shows as a high half wider than 32 bits (each extent is
// below 2^32). A product refused once it passes 2^64 stays refused even if a
// later extent is 0.
Expr tracked_within(const Allocate *op, const Expr &limit) {
    Expr total = make_const(UInt(64), element_bytes(op));
    Expr high = make_zero(UInt(64)), overflow = make_zero(UInt(64));
    const Expr low_mask = make_const(UInt(64), (uint64_t)0xffffffff);
    for (const Expr &e : op->extents) {
        Expr extent = codegen_extent(e);
        high = high * extent + (((total & low_mask) * extent) >> 32);
        total = total * extent;
        overflow = overflow | (high >> 32);
    }
    return overflow == make_zero(UInt(64)) && total <= limit;
}

// The same verdict in one product and one comparison, where that is exact:
// at most two extents that vary, and the element size times the constant
// extents, c, in [1, 2^32). The varying extents' product (each below 2^32)
// cannot overflow 64 bits, and the bytes are within the limit exactly when it
// is within floor(limit / c). No partial product reaches 2^64 unless the
// whole exceeds the limit: before a zero extent stand at most c and one
// varying extent, below 2^64. Undefined where it does not apply.
Expr direct_within(const Allocate *op, uint64_t maximum_buffer_size) {
    uint64_t constant = element_bytes(op);
    std::vector<Expr> varying;
    for (const Expr &e : op->extents) {
        const std::optional<int64_t> c = const_int(e);
        if (!c) {
            varying.push_back(e);
        } else if (*c <= 0 || (uint64_t)*c >= k2To32 || (constant *= *c) >= k2To32) {
            return Expr();
        }
    }
    if (varying.size() > 2) {
        return Expr();
    }
    Expr product = make_const(UInt(64), 1);
    for (const Expr &e : varying) {
        product = product * codegen_extent(e);
    }
    return product <= make_const(UInt(64), maximum_buffer_size / constant);
}

}  // namespace

bool needs_size_limit_check(const Candidate &c, uint64_t maximum_buffer_size) {
    return c.kind == BufferKind::Host && !(c.bounded && c.planned_bytes <= maximum_buffer_size);
}

Stmt size_limit_check(const Allocate *op, uint64_t maximum_buffer_size) {
    const Expr limit = make_const(UInt(64), maximum_buffer_size);
    Expr within = direct_within(op, maximum_buffer_size);
    if (!within.defined()) {
        within = tracked_within(op, limit);
    }
    Expr error = Call::make(Int(32), halide_names::kAllocationTooLarge,
                            {StringImm::make(op->name), allocation_bytes(op), limit}, Call::Extern);
    return AssertStmt::make(simplify(within || !op->condition), error);
}

namespace {

// An assert that reports a buffer too large where it is the first statement:
// a size-limit check (a created-size check sits inside its let).
bool is_size_limit_check(const Stmt &s) {
    const AssertStmt *a = s.as<AssertStmt>();
    const Call *message = a ? a->message.as<Call>() : nullptr;
    return message && message->name == halide_names::kAllocationTooLarge;
}

// Loops inside out, so that a check leaves every loop it is invariant in. Only
// host loops that run their iterations in order or in parallel: a failing
// check fails the call before any iteration's work in either.
class HoistSizeLimitChecks : public IRMutator {
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt loop = IRMutator::visit(op);
        op = loop.as<For>();
        const Block *body = op ? op->body.as<Block>() : nullptr;
        if (!body || !is_size_limit_check(body->first) || stmt_uses_var(body->first, op->name) ||
            !(op->for_type == ForType::Serial || op->for_type == ForType::Parallel) ||
            !(op->device_api == DeviceAPI::None || op->device_api == DeviceAPI::Host)) {
            return loop;
        }
        const AssertStmt *check = body->first.as<AssertStmt>();
        Stmt hoisted = AssertStmt::make(op->extent <= 0 || check->condition, check->message);
        return Block::make(hoisted, with_body(op, body->rest));
    }
};

}  // namespace

Stmt hoist_size_limit_checks(const Stmt &s) {
    return HoistSizeLimitChecks().mutate(s);
}

}  // namespace harena
