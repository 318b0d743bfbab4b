#pragma once
// The preamble of a lowered pipeline: the argument lets and the asserts that
// run before any intermediate exists. It gives the bounds every worst-case size
// is derived from.
#include "types.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace harena {

// A bound's value where it is a constant, as it stands or once simplified;
// none where that side is unbounded or not constant.
std::optional<int64_t> constant_max(const Halide::Internal::Interval &i);
std::optional<int64_t> constant_min(const Halide::Internal::Interval &i);

// Reads the preamble of `s`.
Preamble read_preamble(const Halide::Internal::Stmt &s);

}  // namespace harena
