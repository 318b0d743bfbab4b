// Internal to the solver: the exact search's preprocessing for problems
// that fill every busy section exactly to the capacity (perfect packings at
// their lower bound). Such a problem is split into independent parts, in
// time where no buffer is alive across a step, and in height along the cuts
// of cuts.h, recursively; a part that no cut splits is left to the search
// with its own capacity, where every section must again be filled exactly,
// so the search's pruning is at its sharpest. The parts' plans, each raised
// by the heights cut below it, make a plan of the whole.
//
// Problems with room to spare in some sections (like the published hard
// suite's: squares cut into pieces, some of them left out) are cut the same
// way, S then filling each section to at most h and at least h less its
// room. Such cuts are looser and likelier wrong, so this is tried on them
// only where sizes are multiples of a unit that leaves few heights.
//
// A heuristic: a cut can lead to parts that do not pack although the whole
// does, and then other cuts (a few per part) and the search of the part are
// tried; when all of them fail, so does this, and the caller searches the
// whole problem as before.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/deadline.h"
#include "solver/detail/common/prepared.h"

namespace harena::detail {

struct DecomposeResult {
    bool found = false;
    std::vector<uint64_t> offsets;  // indexed like prepared.items, when found
    uint64_t work = 0;              // work units spent, including the searches' checks (search.h)
    uint64_t nodes = 0;             // search nodes and choices of the cut search (counted alike)
};

// The work per buffer the solver gives solve_by_cuts at `capacity`: 800,000
// (about half a second at 450 buffers) where fills_exactly(capacity); a
// quarter of that where sizes and the capacity are multiples of a unit that
// leaves at most 2^16 heights to cut at; 0 elsewhere (sizes with no common
// unit are rarely cut exactly, and any problem has room somewhere).
uint64_t cut_work_per_buffer(const Prepared &, uint64_t capacity);

// Whether every section of `prepared` holds either no bytes or exactly
// `capacity` bytes of buffers: the problems this applies to.
bool fills_exactly(const Prepared &, uint64_t capacity);

// Looks for a plan within `capacity` by cutting, as above, on a problem that
// fills_exactly(capacity). Stops when it has spent `max_work` work units or
// `max_nodes` nodes (as DecomposeResult counts them). Deterministic: it
// takes the same steps, in the same order, whatever the limits, which only
// cut it short (so a larger budget finds every plan a smaller one finds).
DecomposeResult solve_by_cuts(const Prepared &, uint64_t capacity, uint64_t max_work, uint64_t max_nodes,
                              const Deadline &);

}  // namespace harena::detail
