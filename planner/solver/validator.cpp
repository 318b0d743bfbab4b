#include "solver/validator.h"

#include <algorithm>
#include <numeric>

#include "solver/describe.h"

namespace harena {

namespace {

Validation fail(std::string error) { return {false, std::move(error)}; }

}  // namespace

Validation validate(const Problem &problem, const Plan &plan) {
  const std::vector<Buffer> &buffers = problem.buffers;
  if (plan.offsets.size() != buffers.size()) {
    return fail("plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                std::to_string(buffers.size()) + " buffers");
  }

  uint64_t highest_end = 0;
  for (size_t i = 0; i < buffers.size(); i++) {
    const Buffer &b = buffers[i];
    uint64_t offset = plan.offsets[i];
    if (b.alignment == 0 || offset % b.alignment != 0) {
      return fail(detail::describe_placed(b, i, offset) + " is not aligned to " + std::to_string(b.alignment));
    }
    if (offset > plan.arena_bytes || b.size > plan.arena_bytes - offset) {
      return fail(detail::describe_placed(b, i, offset) + " lies outside the arena of " +
                  std::to_string(plan.arena_bytes) + " bytes");
    }
    highest_end = std::max(highest_end, offset + b.size);
  }
  if (highest_end != plan.arena_bytes) {
    return fail("arena_bytes is " + std::to_string(plan.arena_bytes) + " but the highest buffer ends at byte " +
                std::to_string(highest_end));
  }

  std::vector<size_t> by_begin(buffers.size());
  std::iota(by_begin.begin(), by_begin.end(), 0);
  std::stable_sort(by_begin.begin(), by_begin.end(),
                   [&](size_t a, size_t b) { return buffers[a].begin < buffers[b].begin; });
  for (size_t x = 0; x < by_begin.size(); x++) {
    size_t i = by_begin[x];
    const Buffer &a = buffers[i];
    // Every later buffer in this order begins at or after a.begin, so it is
    // alive together with a exactly when it begins before a.end.
    for (size_t y = x + 1; y < by_begin.size() && buffers[by_begin[y]].begin < a.end; y++) {
      size_t j = by_begin[y];
      const Buffer &b = buffers[j];
      uint64_t oa = plan.offsets[i], ob = plan.offsets[j];
      if (a.size > 0 && b.size > 0 && oa < ob + b.size && ob < oa + a.size) {
        return fail(detail::describe_placed(a, i, oa) + " overlaps " + detail::describe_placed(b, j, ob));
      }
    }
  }
  return {};
}

}  // namespace harena
