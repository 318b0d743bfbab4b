#pragma once
// Bounds on an intermediate's size: a constant worst case from what the
// pipeline declares, the bytes at the representative values the layout is
// chosen at, and an expression evaluable where the pipeline's frame opens that
// bounds the size on every iteration of the loops around the allocation (the
// bytes each call needs).
#include "size/buffer_facts.h"
#include "size/free_names.h"
#include "size/preamble.h"

#include <optional>

namespace harena {

// A loop around an allocation: its variable and inclusive bounds, with the
// enclosing lets substituted (in terms of outer loops' variables and names
// visible where the frame opens).
struct LoopRange {
    std::string var;
    Halide::Expr min, max;
};

struct SizeBounds {
    // The most any call within the declared bounds needs; none when the size
    // depends on a name without a declared maximum.
    std::optional<uint64_t> worst;
    // The bytes at the representative values; none when even those leave the
    // size unbounded.
    std::optional<uint64_t> representative;
    // Evaluable where the frame opens and at least the size on every
    // iteration of the enclosing loops (Int(64)); undefined when the size
    // depends on something computed inside the pipeline.
    Halide::Expr per_call;
    // per_call is the size itself: it names nothing the loops change, so the
    // frame computes exactly what the buffer will take.
    bool exact = false;
};

SizeBounds bound_size(const Halide::Expr &size, const std::vector<LoopRange> &loops, const Preamble &preamble);

// Whether `e` can be evaluated where the frame opens: it names only the
// preamble's lets and the pipeline's parameters, and loads nothing.
bool evaluable_at_entry(const Halide::Expr &e, const Preamble &preamble);

// The names that leave `e` without a declared maximum, traced through the
// loops' bounds and the preamble's lets to the argument fields and scalar
// parameters a user can declare a maximum for.
std::vector<std::string> unbounded_names(const Halide::Expr &e, const std::vector<LoopRange> &loops,
                                         const Preamble &preamble);

// The message for a buffer whose size has no declared maximum: its size, the
// first dimension that is unbounded and the names that leave it so, and what
// to declare. `extents` are the buffer's, lets substituted.
std::string unbounded_message(const std::string &buffer, const Halide::Expr &size,
                              const std::vector<Halide::Expr> &extents, const std::vector<LoopRange> &loops,
                              const Preamble &preamble);

}  // namespace harena
