// Internal to the solver: the lowest-first pass. Repeatedly places, among
// all unplaced buffers, the one that can go lowest, on top of the buffers it
// is alive with (ties go to the earlier buffer in a given order). Offsets
// come out in nondecreasing order, so this is the first plan the exact
// search would build without a capacity; unlike best fit it never leaves a
// gap that a buffer placed later could have used, and it suits problems
// whose lifetimes interlock (random lifetimes, packings) where best fit
// fragments.
//
// A buffer's lowest offset is the highest skyline over its lifetime, which
// each candidate keeps up to date as buffers alive with it are placed; the
// heap of candidates is keyed by possibly stale lowest offsets, corrected
// when they reach the front. About O(n log n) plus O(log n) per correction,
// plus O(1) per pair of buffers alive at the same time.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/prepared.h"

namespace harena::detail {

// Returns the arena; offsets is indexed like prepared.items. `order` is a
// permutation of item indices that breaks ties.
uint64_t lowest_first(const Prepared &, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets);

// The same for only the items in `order`, placed on top of `floor`: the
// heights of sections [first, first + floor.size()), which hold every one of
// their lifetimes. Sets the offsets of those items only and returns their
// highest top. Lowest first places buffers by increasing offset, so given
// the tops of the buffers below some height as the floor, it carries on a
// plan from there (the squeaky wheel re-places only what is above it).
uint64_t lowest_first(const Prepared &, const std::vector<uint32_t> &order, uint32_t first,
                      const std::vector<uint64_t> &floor, std::vector<uint64_t> &offsets);

}  // namespace harena::detail
