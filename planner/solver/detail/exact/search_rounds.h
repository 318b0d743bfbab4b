// Internal to the solver: how solve() spends its exact-search budget. A
// portfolio of search orders (search.h) runs in rounds, MiniMalloc's round
// robin: each round every order gets a work limit that doubles from round to
// round, so that whichever finds a plan quickly does.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/deadline.h"
#include "solver/detail/common/prepared.h"

namespace harena::detail {

// What the exact search may still spend, over all its runs.
struct SearchBudget {
    uint64_t work, nodes;
    bool spent() const {
        return work == 0 || nodes == 0;
    }
};

// Improves `best` by exact search, down to `goal` at best. Each round looks
// for a plan halfway between the best found and the lowest arena not yet
// ruled out (the lower bound first), then for one at that lowest arena.
// With `aim_only` (capacity mode: lower_bound and goal are the capacity)
// only the capacity is searched, and a proof that nothing fits there ends
// the search. Every decision depends only on earlier results, so a larger
// budget repeats a smaller one's runs and goes on from there. Returns
// whether `best` improved.
bool improve_by_search(const Prepared &, const std::vector<uint64_t> &pressure, uint64_t lower_bound, uint64_t goal,
                       bool aim_only, SearchBudget, const Deadline &, Incumbent &best);

}  // namespace harena::detail
