#pragma once
// Finds the intermediates of a lowered pipeline that the arena can hold, with
// their program-order lifetimes, their planned sizes (a worst case, or the
// bytes at representative values), what each call needs, and the parallel
// loops whose iterations allocate them.
#include "types.h"

#include <map>

namespace harena {

// Throws Halide::CompileError for a size without a declared maximum when
// options.unbounded is Unbounded::Error.
Census take_census(const Halide::Internal::Stmt &s, const Preamble &preamble,
                   const CensusOptions &options);

}  // namespace harena
