#pragma once
// The check Halide's codegen makes of a heap allocation's size, which a
// planned host buffer needs from the pass: bound to its slice by a let, it is
// no Allocate (rewrite_allocations.h). Its bytes, the product of its extents
// and its element size computed without overflow, must be within the
// target's maximum buffer size (Target::maximum_buffer_size()); otherwise the
// call fails with halide_error_buffer_allocation_too_large, as Halide's would.
#include "types.h"

namespace harena {

// Whether `c` can exceed the limit: its worst case over the declared bounds
// is above it, or it has none.
bool needs_size_limit_check(const Candidate &c, uint64_t maximum_buffer_size);

// The check of `op`'s size where it is allocated.
Halide::Internal::Stmt size_limit_check(const Halide::Internal::Allocate *op, uint64_t maximum_buffer_size);

// `s` with each size-limit check that begins a host loop's body and reads
// nothing the loop changes made once before the loop, where the loop runs at
// all: the same calls fail, with the same error, before anything else the
// loop would do.
Halide::Internal::Stmt hoist_size_limit_checks(const Halide::Internal::Stmt &s);

}  // namespace harena
