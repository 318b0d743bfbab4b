#include "host_allocation.h"

#include <algorithm>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Largest allocation Halide's codegen keeps on the stack
// (Runtime::Internal::Constants::maximum_stack_allocation_bytes).
constexpr int64_t kMaxStackBytes = 16384;

}  // namespace

uint64_t element_bytes(const Allocate *op) {
    return (uint64_t)op->type.lanes() * op->type.bytes();
}

uint64_t padding_elements(const Allocate *op) {
    return (uint64_t)std::max(3, declared_padding(op).value_or(3));
}

uint64_t padding_bytes(const Allocate *op) {
    return padding_elements(op) * element_bytes(op);
}

Expr codegen_extent(const Expr &e) {
    return cast(UInt(64), cast(UInt(32), max(0, e)));
}

Expr allocation_bytes(const Allocate *op) {
    Expr bytes = make_const(UInt(64), element_bytes(op));
    for (const Expr &e : op->extents) {
        bytes = bytes * codegen_extent(e);
    }
    return simplify(bytes);
}

bool kept_on_stack(const Allocate *op) {
    const int64_t constant = Allocate::constant_allocation_size(op->extents, op->name);
    const int64_t padding = declared_padding(op).value_or(0);
    return op->memory_type == MemoryType::Auto && constant > 0 &&
           (constant + padding) * op->type.bytes() <= kMaxStackBytes;
}

}  // namespace harena
