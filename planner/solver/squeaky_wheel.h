// Internal to the solver: squeaky-wheel optimization (Joslin & Clements,
// JAIR 1999) over lowest-first passes. After each pass, every buffer that
// ends above the lower bound gets its priority raised in proportion to how
// far above it ends, and the next pass places buffers by priority; buffers
// that caused the peak move ahead of those that fit anyway, which is what a
// lower arena needs, while a whole pass keeps every placement consistent.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/deadline.h"
#include "solver/prepared.h"

namespace harena::detail {

struct SqueakyWheelBudget {
  uint64_t passes = 0;      // lowest-first passes
  uint64_t placements = 0;  // buffers placed over all passes
};

// Starts from `start` (a lowest-first incumbent) and replaces `best` by any
// better plan found, until best's arena is at most `goal` or the budget or
// deadline runs out. Priorities grow with how far buffers end above
// `lower_bound`.
void squeaky_wheel(const Prepared &, const Incumbent &start, uint64_t lower_bound, uint64_t goal,
                   const SqueakyWheelBudget &, const Deadline &, Incumbent &best);

}  // namespace harena::detail
