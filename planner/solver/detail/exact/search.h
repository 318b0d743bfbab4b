// Internal to the solver: an exact search for a plan within a given arena
// size, after MiniMalloc (Moffitt, ASPLOS'23). It only builds canonical
// plans: buffers are placed in nondecreasing offset order, each resting on
// the highest buffer below it that it is alive with, which loses no
// solution. A depth-first search chooses which buffer comes next. It prunes
// partial plans that leave some time with more unplaced bytes than room, or
// with a height that the buffers able to go below it cannot fill up to;
// ones that leave a gap a remaining buffer could have used; ones where the
// floors that must be filled cannot be covered, level by level, by buffers
// able to go exactly there; orders of buffers that can trade places but
// one (symmetry.h); and, once a buffer that nothing unplaced is alive with
// fails, every other choice at that step (MiniMalloc's hatless pruning). Once no unplaced buffer is alive across some time step,
// the two sides are solved as separate problems, so a failure on one side
// does not make the search retry the other.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/deadline.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"

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
    uint64_t check_work = 0;        // the checks' own work (see kCheckWorkPerWork)
};

// How the search chooses between buffers that could go at the same offset,
// which steers it.
struct SearchOrder {
    std::vector<uint32_t> preorder;  // a permutation of item indices: earlier first
    // Before the preorder, buffers that would end where the floor steps and
    // whose top would meet a neighbouring floor: the pieces of a tiling.
    bool fitting_first = false;
    // Buffers at one offset go in preorder rather than left to right, and
    // are tried in preorder (MiniMalloc's canonical form): another complete
    // search, which solves some packings the other leaves unsolved.
    bool by_preorder = false;
    // With by_preorder: each part the search splits off (see above) takes
    // its own preorder, drawn by this key from the bytes still unplaced, as
    // MiniMalloc's search does, rather than keeping `preorder` (which should
    // then be preorder_of this key). Fixed keeps it.
    Preorder reorder = Preorder::Fixed;
};

// The stacking and floor-cover checks cost about as much as the rest of a
// node. They count their work apart, as `check_work`, beyond what the check
// of the lowest level only (which the floor cover replaced) was charged, so
// that `max_work` covers as many nodes as before they came in; they may do
// at most this many times `max_work`, which bounds the time per work unit.
constexpr uint64_t kCheckWorkPerWork = 2;

// Looks for a plan within `capacity`, steered by `order`. It gives up after
// `max_work` elementary operations (or kCheckWorkPerWork times that in the
// checks) or `max_nodes` nodes, whichever comes first; with a larger budget
// it visits the same nodes first, so it finds every plan a smaller budget
// finds.
SearchResult search(const Prepared &, const SearchOrder &order, uint64_t capacity, uint64_t max_work,
                    uint64_t max_nodes, const Deadline &);

}  // namespace harena::detail
