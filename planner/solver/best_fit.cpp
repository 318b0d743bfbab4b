#include "solver/best_fit.h"

#include <algorithm>

namespace harena::detail {

BestFit::BestFit(const Prepared &prepared) : prepared_(prepared) {
  while (leaves_ < prepared.points) leaves_ *= 2;
  covering_.resize(2 * size_t(leaves_));
  starting_.resize(prepared.points);
  has_start_.resize(prepared.points / 64 + 1);
}

void BestFit::clear() {
  for (auto &v : covering_) v.clear();
  for (auto &v : starting_) v.clear();
  std::fill(has_start_.begin(), has_start_.end(), 0);
}

void BestFit::insert(uint32_t i, uint64_t offset) {
  const Item &item = prepared_.items[i];
  Extent extent{offset, offset + item.size};
  for (uint32_t l = item.begin + leaves_, r = item.end + leaves_; l < r; l >>= 1, r >>= 1) {
    if (l & 1) covering_[l++].push_back(extent);
    if (r & 1) covering_[--r].push_back(extent);
  }
  starting_[item.begin].push_back(extent);
  has_start_[item.begin / 64] |= uint64_t(1) << (item.begin % 64);
}

void BestFit::sort_occupied() {
  const size_t k = occupied_.size();
  if (k < kRadixFrom) {
    std::sort(occupied_.begin(), occupied_.end(), [](const Extent &a, const Extent &b) { return a.first < b.first; });
    return;
  }
  // A byte at a time from the lowest, skipping the bytes that all offsets
  // share (usually the high ones).
  uint64_t any = 0, all = ~uint64_t(0);
  for (const Extent &e : occupied_) {
    any |= e.first;
    all &= e.first;
  }
  const uint64_t differ = any ^ all;
  sorted_.resize(k);
  for (int shift = 0; shift < 64; shift += 8) {
    if (((differ >> shift) & 0xff) == 0) continue;
    uint32_t start[257] = {};
    for (const Extent &e : occupied_) start[((e.first >> shift) & 0xff) + 1]++;
    for (int d = 0; d < 256; d++) start[d + 1] += start[d];
    for (const Extent &e : occupied_) sorted_[start[(e.first >> shift) & 0xff]++] = e;
    occupied_.swap(sorted_);
  }
}

uint64_t BestFit::find_offset(uint32_t i) {
  const Item &item = prepared_.items[i];
  occupied_.clear();
  for (uint32_t v = item.begin + leaves_; v >= 1; v >>= 1) {
    occupied_.insert(occupied_.end(), covering_[v].begin(), covering_[v].end());
  }
  // Sections begin + 1 .. end - 1, a word of has_start_ at a time.
  for (uint32_t t = item.begin + 1; t < item.end;) {
    uint64_t word = has_start_[t / 64] >> (t % 64);
    if (word == 0) {
      t = (t / 64 + 1) * 64;
      continue;
    }
    t += uint32_t(__builtin_ctzll(word));
    if (t >= item.end) break;
    occupied_.insert(occupied_.end(), starting_[t].begin(), starting_[t].end());
    t++;
  }
  sort_occupied();

  // Walk the gaps bottom-up; `free_from` is where the current gap starts.
  uint64_t free_from = 0;
  uint64_t best_offset = 0, best_gap = UINT64_MAX;
  for (const auto &[begin, end] : occupied_) {
    if (begin > free_from) {
      uint64_t offset = align_up(free_from, item.alignment);
      uint64_t gap = begin - free_from;
      if (offset + item.size <= begin && gap < best_gap) {
        best_gap = gap;
        best_offset = offset;
      }
    }
    free_from = std::max(free_from, end);
  }
  return best_gap != UINT64_MAX ? best_offset : align_up(free_from, item.alignment);
}

uint64_t BestFit::run(const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets, uint64_t give_up_at) {
  clear();
  offsets.resize(prepared_.items.size());
  uint64_t arena = 0;
  for (uint32_t i : order) {
    offsets[i] = find_offset(i);
    insert(i, offsets[i]);
    arena = std::max(arena, offsets[i] + prepared_.items[i].size);
    if (arena >= give_up_at) break;
  }
  return arena;
}

}  // namespace harena::detail
