#include "size_limit.h"

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

bool needs_size_limit_check(const Candidate &c, uint64_t maximum_buffer_size) {
    return c.kind == BufferKind::Host && !(c.bounded && c.planned_bytes <= maximum_buffer_size);
}

Stmt size_limit_check(const Allocate *op, uint64_t maximum_buffer_size) {
    // The product is built in 64 bits with its high half tracked, so that an
    // overflow shows as a high half wider than 32 bits; each extent is below 2^32.
    Expr total = make_const(UInt(64), op->type.lanes() * op->type.bytes());
    Expr high = make_zero(UInt(64)), overflow = make_zero(UInt(64));
    const Expr low_mask = make_const(UInt(64), (uint64_t)0xffffffff);
    for (const Expr &e : op->extents) {
        Expr extent = cast(UInt(64), cast(UInt(32), max(0, e)));
        high = high * extent + (((total & low_mask) * extent) >> 32);
        total = total * extent;
        overflow = overflow | (high >> 32);
    }
    const Expr limit = make_const(UInt(64), maximum_buffer_size);
    Expr within = simplify((overflow == make_zero(UInt(64)) && total <= limit) || !op->condition);
    Expr error = Call::make(Int(32), "halide_error_buffer_allocation_too_large",
                            {StringImm::make(op->name), simplify(total), limit}, Call::Extern);
    return AssertStmt::make(within, error);
}

}  // namespace harena
