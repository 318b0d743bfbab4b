#pragma once
// Answers a bounds query on the arena argument (PassOptions::arena_argument)
// the way Halide answers one on an input: a call whose arena buffer has no
// host and no device memory gets the arena's shape written into it, dim 0
// min 0 and extent the bytes the call needs, and runs nothing else.
#include "rewrite/open_frame.h"
#include "rewrite/argument_frame.h"

#include <map>

namespace harena {

// `s` with the answer before Halide's own pipeline branch, which the query
// then skips. Halide computes the call's sizes inside that branch, below its
// own bounds queries: the answer evaluates the same layout (`layout.needed`)
// from the lets on the way to where the frame opens, the arguments' shapes
// read again after Halide has answered its own queries. Where those sizes
// depend on values the pipeline computes, the query fails saying so.
// `s` unchanged where it has no pipeline branch (a target without bounds
// queries).
Halide::Internal::Stmt answer_arena_query(const Halide::Internal::Stmt &s,
                                          const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                          const RunLayout &layout, const ArgumentFrame &frame);

}  // namespace harena
