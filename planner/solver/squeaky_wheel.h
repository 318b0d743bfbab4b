// Internal to the solver: squeaky-wheel optimization (Joslin & Clements,
// JAIR 1999) over lowest-first passes, run only where the plan is too high.
// After each pass, every buffer that ends above the lower bound gets its
// priority raised in proportion to how far above it ends, and the next pass
// places buffers by priority; buffers that caused the peak move ahead of
// those that fit anyway, which is what a lower arena needs.
//
// A pass re-places only a window: the buffers that end above some height
// and are linked, through lifetimes that overlap, to a buffer above the
// goal. The buffers below that height stay where they are and form the
// floor; the other buffers that end above it are alive at other times. So a pass costs the
// window's size, not the problem's, and on a long program the peaks are
// repaired one by one. The height starts just below the lower bound and
// goes down to 0 (the whole problem) while the windows above it cannot be
// brought down to the goal.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/deadline.h"
#include "solver/prepared.h"

namespace harena::detail {

struct SqueakyWheelBudget {
  uint64_t passes = 0;      // lowest-first passes per window and height
  uint64_t placements = 0;  // buffers placed over all passes
};

// Starts from `start` (any valid plan, and the order that made it) and
// replaces `best` by any better plan found, until best's arena is at most
// `goal` or the budget or deadline runs out. Priorities grow with how far
// buffers end above `lower_bound`. `start` may be `best` itself; best.order
// is left as it was, as the plan no longer comes from one order.
void squeaky_wheel(const Prepared &, const Incumbent &start, uint64_t lower_bound, uint64_t goal,
                   const SqueakyWheelBudget &, const Deadline &, Incumbent &best);

}  // namespace harena::detail
