#include "solver/squeaky_wheel.h"

#include <algorithm>

#include "solver/lowest_first.h"

namespace harena::detail {

void squeaky_wheel(const Prepared &prepared, const Incumbent &start, uint64_t lower_bound, uint64_t goal,
                   const SqueakyWheelBudget &budget, const Deadline &deadline, Incumbent &best) {
  const size_t n = prepared.items.size();
  // A raise of this much (for the buffer highest above the bound) moves a
  // buffer ahead of 5% of the others: enough to reorder the buffers at a
  // peak within a few passes, small enough not to undo the start order.
  const double boost = 0.05 * double(n);

  std::vector<double> priority(n);
  for (size_t k = 0; k < n; k++) priority[start.order[k]] = double(n - k);
  std::vector<uint32_t> order = start.order;
  std::vector<uint64_t> offsets = start.offsets;
  uint64_t arena = start.arena;
  uint64_t placed = 0;

  for (uint64_t pass = 0; pass < budget.passes && best.arena > goal; pass++) {
    if (placed + n > budget.placements || deadline.expired()) break;
    for (size_t i = 0; i < n; i++) {
      uint64_t top = offsets[i] + prepared.items[i].size;
      if (top > lower_bound) priority[i] += boost * double(top - lower_bound) / double(arena - lower_bound);
    }
    // Stable on the previous order, so equal priorities keep their places.
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return priority[a] > priority[b]; });
    arena = lowest_first(prepared, order, offsets);
    placed += n;
    if (arena < best.arena) {
      best.order = order;
      best.offsets = offsets;
      best.arena = arena;
    }
  }
}

}  // namespace harena::detail
