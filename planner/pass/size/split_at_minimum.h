#pragma once
// A shorter form of a size the frame computes each call, for LLVM to compile.
// Bounds inference writes extents as nests of min, max and abs that no
// simplifier resolves over a name's whole range: the extent of x / s, for a
// scale s whose sign it cannot see, over an output of extent e is
// max(1 - e, max(e, 1) - 1) - min(1 - e, min(e, 1) - 1) + 1. On either side
// of the least value the pipeline checks e can take, they fold: to 3 where
// e is 0, and to e*2 - 1 above it. LLVM's InstCombine spends most of a small
// pipeline's extra build time on such nests.
#include "size/preamble.h"

namespace harena {

// `e` with each part that names a single checked name (one with a constant
// minimum m that the preamble checks before the frame opens) replaced by
// select(name <= m, the part at m, the part simplified over (m, max]), where
// that has fewer nodes. Exact wherever the preamble's checks passed, which is
// wherever the frame's lets are computed.
Halide::Expr split_at_minimum(const Halide::Expr &e, const Preamble &preamble);

}  // namespace harena
