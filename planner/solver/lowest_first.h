// Internal to the solver: the lowest-first pass. Repeatedly places, among
// all unplaced buffers, the one that can go lowest, on top of the buffers it
// is alive with (ties go to the earlier buffer in a given order). Offsets
// come out in nondecreasing order, so this is the first plan the exact
// search would build without a capacity; unlike best fit it never leaves a
// gap that a buffer placed later could have used, and it suits problems
// whose lifetimes interlock (random lifetimes, packings) where best fit
// fragments.
//
// A buffer's lowest offset is the highest skyline over its lifetime, kept in
// a segment tree over sections; the heap of candidates is keyed by possibly
// stale lowest offsets, corrected when they reach the front. About
// O(n log n) plus O(log n) per correction.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/prepared.h"

namespace harena::detail {

// Returns the arena; offsets is indexed like prepared.items. `order` is a
// permutation of item indices that breaks ties.
uint64_t lowest_first(const Prepared &, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets);

}  // namespace harena::detail
