// Internal to the solver: an exact search for a plan within a given arena
// size, after MiniMalloc (Moffitt, ASPLOS'23). It only builds canonical
// plans: buffers are placed in nondecreasing offset order, each resting on
// the highest buffer below it that it is alive with, which loses no
// solution. A depth-first search chooses which buffer comes next. It prunes
// partial plans that leave some time with more unplaced bytes than room,
// and ones that leave a gap a remaining buffer could have used; and once no
// unplaced buffer is alive across some time step, the two sides are solved
// as separate problems, so a failure on one side does not make the search
// retry the other.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/deadline.h"
#include "solver/prepared.h"

namespace harena::detail {

enum class SearchStatus {
  Found,       // offsets hold a plan with arena <= capacity
  Infeasible,  // no plan fits in capacity
  GaveUp,      // ran out of steps or time
};

struct SearchResult {
  SearchStatus status = SearchStatus::GaveUp;
  std::vector<uint64_t> offsets;  // indexed like prepared.items, when Found
  uint64_t work = 0;              // elementary operations done (see SolverOptions::search_work_per_buffer)
  uint64_t nodes = 0;             // placements tried (see SolverOptions::search_node_limit)
};

// `preorder` (a permutation of item indices) decides between buffers that
// could go at the same offset, and so steers the search. It gives up after
// `max_work` elementary operations or `max_nodes` nodes, whichever comes
// first; with a larger budget it visits the same nodes first, so it finds
// every plan a smaller budget finds.
SearchResult search(const Prepared &, const std::vector<uint32_t> &preorder, uint64_t capacity,
                    uint64_t max_work, uint64_t max_nodes, const Deadline &);

}  // namespace harena::detail
