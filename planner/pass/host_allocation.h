#pragma once
// What Halide's codegen does with an Allocate on the host, which a planned
// host buffer's slice stands in for: the bytes of its elements, the padding
// past its end that vector loads read, and whether codegen keeps it on the
// stack instead of the heap. Where the releases differ, the Allocate's own
// declaration says which applies (halide_compat.h).
#include "halide_compat.h"

#include <cstdint>

namespace harena {

// Bytes of one element as codegen sizes a heap allocation: the lanes times
// the scalar's bytes.
uint64_t element_bytes(const Halide::Internal::Allocate *op);

// Elements a planned host buffer's slice holds past its end, which vector
// loads may read but nothing writes: Halide 14's three on every release, so
// that plans do not depend on the release, or what the allocation declares
// where that is more.
uint64_t padding_elements(const Halide::Internal::Allocate *op);

// The bytes of that padding.
uint64_t padding_bytes(const Halide::Internal::Allocate *op);

// An extent as codegen reads it in an allocation's size: max(0, e) in 32
// bits, widened to UInt(64).
Halide::Expr codegen_extent(const Halide::Expr &e);

// The bytes codegen computes for `op` (UInt(64)): the element size times
// each extent read as max(0, e) in 32 bits, without the padding. The
// size-limit check's message reports them, and a planned host buffer's
// events and checks use them where it is created: one expression, which
// LLVM computes once.
Halide::Expr allocation_bytes(const Halide::Internal::Allocate *op);

// Whether codegen keeps `op` on the stack: small, of a constant size, and of
// no memory type that says otherwise, counting the padding it declares.
bool kept_on_stack(const Halide::Internal::Allocate *op);

}  // namespace harena
