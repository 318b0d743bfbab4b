// Internal to the solver: the first-fit pass (TFLite's greedy by size, with
// the lowest gap that holds a buffer rather than the smallest). Buffers are
// placed one at a time in a given order, each at the lowest offset where it
// fits among the buffers already placed that are alive with it.
//
// Finding that offset by scanning the placed buffers alive at the same time
// makes a pass quadratic when thousands are alive at once; the gap index
// answers it from O(log S) lists, so a pass stays near n log n.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/greedy/gap_index.h"
#include "solver/detail/common/prepared.h"

namespace harena::detail {

// Places prepared.items in `order` (indices into items) and returns the
// arena; offsets is indexed like items. `index` (built over the prepared
// problem's sections) is cleared first, so one index serves every pass.
// Stops as soon as the arena reaches `give_up_at` (a plan to beat),
// returning an arena at least that and a partial plan.
uint64_t first_fit(const Prepared &, GapIndex &index, const std::vector<uint32_t> &order,
                   std::vector<uint64_t> &offsets, uint64_t give_up_at = UINT64_MAX);

// The number of sections of a prepared problem, which is what its gap
// index is built over.
inline uint32_t sections_of(const Prepared &prepared) {
    return prepared.points > 0 ? prepared.points - 1 : 0;
}

}  // namespace harena::detail
