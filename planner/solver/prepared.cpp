#include "solver/prepared.h"

#include <algorithm>
#include <map>
#include <set>

namespace harena::detail {

Prepared prepare(const Problem &problem) {
  std::vector<int64_t> times;
  for (const Buffer &b : problem.buffers) {
    if (b.size == 0) continue;
    times.push_back(b.begin);
    times.push_back(b.end);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  auto rank = [&](int64_t t) {
    return uint32_t(std::lower_bound(times.begin(), times.end(), t) - times.begin());
  };

  Prepared prepared;
  prepared.points = uint32_t(times.size());
  for (size_t i = 0; i < problem.buffers.size(); i++) {
    const Buffer &b = problem.buffers[i];
    if (b.size == 0) continue;
    prepared.items.push_back(
        {rank(b.begin), rank(b.end), b.size, b.alignment, uint64_t(b.end) - uint64_t(b.begin), uint32_t(i)});
  }
  return prepared;
}

namespace {

int log2_of(uint64_t power_of_two) { return __builtin_ctzll(power_of_two); }

// The live set of one alignment class: the sum of sizes rounded up to that
// alignment and the rounding slack of each member, so that the bound for a
// section whose smallest live alignment is this class is sum - max slack.
struct AlignmentClass {
  uint64_t alignment = 1;
  uint64_t members = 0;  // live items whose own alignment is this one
  uint64_t sum = 0;      // over all live items, sizes rounded up to `alignment`
  std::multiset<uint64_t> slacks;
};

}  // namespace

uint64_t lower_bound(const Prepared &prepared) {
  // Only alignments that occur matter (usually just one), and any of them may
  // be the smallest live one at some time, so each keeps sums over all items.
  // A class coarser than some live item's own alignment may wrap around, but
  // it is read only while it is the smallest live one, and then its sum is
  // at most check_problem's bound: unsigned arithmetic makes it exact.
  std::map<int, AlignmentClass> classes;
  for (const Item &item : prepared.items) classes[log2_of(item.alignment)].alignment = item.alignment;

  std::vector<std::vector<uint32_t>> starts(prepared.points), ends(prepared.points);
  for (uint32_t i = 0; i < prepared.items.size(); i++) {
    starts[prepared.items[i].begin].push_back(i);
    ends[prepared.items[i].end].push_back(i);
  }

  uint64_t bound = 0;
  for (uint32_t t = 0; t < prepared.points; t++) {
    for (uint32_t i : ends[t]) {
      const Item &item = prepared.items[i];
      for (auto &[log2, c] : classes) {
        uint64_t rounded = align_up(item.size, c.alignment);
        c.sum -= rounded;
        c.slacks.erase(c.slacks.find(rounded - item.size));
        if (log2 == log2_of(item.alignment)) c.members--;
      }
    }
    for (uint32_t i : starts[t]) {
      const Item &item = prepared.items[i];
      for (auto &[log2, c] : classes) {
        uint64_t rounded = align_up(item.size, c.alignment);
        c.sum += rounded;
        c.slacks.insert(rounded - item.size);
        if (log2 == log2_of(item.alignment)) c.members++;
      }
    }
    for (const auto &[log2, c] : classes) {
      if (c.members == 0) continue;
      bound = std::max(bound, c.sum - *c.slacks.rbegin());
      break;  // the smallest live alignment decides
    }
  }
  return bound;
}

}  // namespace harena::detail
