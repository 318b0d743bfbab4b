// Internal to the solver: squeaky-wheel optimization (Joslin & Clements,
// JAIR 1999) over lowest-first passes, run only where the plan is too high.
// After each pass, every buffer that ends above the lower bound has its
// lowest-first bias lowered in proportion to how far above it ends, so the
// next pass places it earlier: buffers that caused the peak settle before
// those that fit anyway, which is what a lower arena needs. (Lowering the
// bias moves a buffer ahead of others that could go up to that much lower;
// a priority that only broke ties between equally low buffers moved it far
// less, and needed several times the passes.)
//
// A pass re-places only a window: the buffers that end above some height
// and are linked, through lifetimes that overlap, to a buffer above the
// goal. The buffers below that height stay where they are and form the
// floor; the other buffers that end above it are alive at other times. So a pass costs the
// window's size, not the problem's, and on a long program the peaks are
// repaired one by one. The height starts at half the lower bound and
// goes down to 0 (the whole problem) while the windows above it cannot be
// brought down to the goal.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/deadline.h"
#include "solver/detail/common/prepared.h"

namespace harena::detail {

struct SqueakyWheelBudget {
    uint64_t passes = 0;      // lowest-first passes per window and height
    uint64_t placements = 0;  // buffers placed over all passes
};

// Starts from `start` (any valid plan, and the order that made it) and
// replaces `best` by any better plan found, until best's arena is at most
// `goal` or the budget or deadline runs out. `bias` (indexed like
// prepared.items, or empty for none) is the bias the passes start from;
// start.order breaks ties. `start` may be `best` itself; best.order is left
// as it was, as the plan no longer comes from one order.
void squeaky_wheel(const Prepared &, const Incumbent &start, const std::vector<int64_t> &bias,
                   uint64_t lower_bound, uint64_t goal, const SqueakyWheelBudget &, const Deadline &,
                   Incumbent &best);

}  // namespace harena::detail
