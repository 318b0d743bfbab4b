// Internal to the solver: the best-fit pass. Buffers are placed one at a time
// in a given order, each into the smallest gap, among the buffers already
// placed that are alive at the same time, that holds it at its alignment;
// when none does, on top of them.
//
// Finding the buffers alive at the same time is what makes this O(n^2) when
// done by scanning all placed ones; here an interval index answers it in
// time proportional to the answer, so a pass costs about
// O(sum over buffers of k log k) for k time-overlapping placed buffers.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "solver/prepared.h"

namespace harena::detail {

class BestFit {
 public:
  explicit BestFit(const Prepared &);

  // Places prepared.items in `order` (indices into items) and returns the
  // arena; offsets is indexed like items. Stops as soon as the arena
  // reaches `give_up_at` (a plan to beat), returning an arena at least that
  // and a partial plan.
  uint64_t run(const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets,
               uint64_t give_up_at = UINT64_MAX);

 private:
  // [offset, end) of a placed item: the index keeps these rather than item
  // numbers so that a query reads them without chasing indices.
  using Extent = std::pair<uint64_t, uint64_t>;

  void clear();
  void insert(uint32_t item, uint64_t offset);
  uint64_t find_offset(uint32_t item);
  // Sorts occupied_ by offset. Comparisons of random offsets are coin tosses
  // for the branch predictor, so beyond a few dozen extents a radix sort,
  // which has no such branches, is several times faster.
  void sort_occupied();
  static constexpr size_t kRadixFrom = 32;

  const Prepared &prepared_;
  uint32_t leaves_ = 1;  // power of two >= number of sections
  // Segment tree over sections: node v holds the placed items whose lifetime
  // covers v's span but not its parent's, so the items alive in section t
  // are exactly those on the path from leaf t to the root.
  std::vector<std::vector<Extent>> covering_;
  // Placed items by the section they begin in: together with the items alive
  // in an item's first section, these are all the items alive with it.
  std::vector<std::vector<Extent>> starting_;
  // Bit t set when starting_[t] is not empty, so that a long lifetime skips
  // the many sections where nothing placed begins 64 at a time.
  std::vector<uint64_t> has_start_;
  std::vector<Extent> occupied_;  // scratch: extents of the items alive with the one being placed
  std::vector<Extent> sorted_;    // scratch for sort_occupied
};

}  // namespace harena::detail
