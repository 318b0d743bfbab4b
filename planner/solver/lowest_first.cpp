#include "solver/lowest_first.h"

#include <algorithm>

#include "solver/skyline.h"

namespace harena::detail {

namespace {

// A binary min-heap whose top can be replaced in one sift, which is what
// requeueing a stale candidate needs. Keys pack (lowest offset, position in
// order) so that one integer comparison orders them.
class CandidateHeap {
 public:
  using Key = unsigned __int128;
  static Key key(uint64_t offset, uint32_t position) { return (Key(offset) << 32) | position; }
  static uint64_t offset(Key k) { return uint64_t(k >> 32); }
  static uint32_t position(Key k) { return uint32_t(k); }

  explicit CandidateHeap(uint32_t n) {
    // Positions in increasing order already form a heap.
    keys_.resize(n);
    for (uint32_t k = 0; k < n; k++) keys_[k] = key(0, k);
  }
  bool empty() const { return keys_.empty(); }
  Key top() const { return keys_[0]; }
  // The smaller child of the top, or the largest key when there is none.
  Key second() const {
    if (keys_.size() < 2) return ~Key(0);
    return keys_.size() < 3 ? keys_[1] : std::min(keys_[1], keys_[2]);
  }
  void pop() {
    keys_[0] = keys_.back();
    keys_.pop_back();
    if (!keys_.empty()) sift_down();
  }
  void replace_top(Key k) {
    keys_[0] = k;
    sift_down();
  }

 private:
  void sift_down() {
    size_t i = 0, n = keys_.size();
    Key k = keys_[0];
    // Nodes with two children without a branch on which is smaller, since
    // that is a coin toss; the last node may have one.
    size_t c;
    for (; (c = 2 * i + 2) < n; i = c) {
      c -= keys_[c - 1] < keys_[c];
      if (!(keys_[c] < k)) break;
      keys_[i] = keys_[c];
    }
    if (c == n && keys_[n - 1] < k) {
      keys_[i] = keys_[n - 1];
      i = n - 1;
    }
    keys_[i] = k;
  }

  std::vector<Key> keys_;
};

}  // namespace

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, uint32_t first,
                      const std::vector<uint64_t> &floor, std::vector<uint64_t> &offsets) {
  Skyline skyline(floor);
  offsets.resize(prepared.items.size());
  // The items by position in order, relative to `first`: the loop reads one
  // of these per check, so they are packed in heap-key order rather than
  // reached through order and items.
  struct Candidate {
    uint32_t begin, end;
    uint64_t size, alignment;
  };
  std::vector<Candidate> candidates(order.size());
  for (size_t k = 0; k < order.size(); k++) {
    const Item &item = prepared.items[order[k]];
    candidates[k] = {item.begin - first, item.end - first, item.size, item.alignment};
  }

  // Keyed by lowest offset as last computed, which only grows: a candidate
  // whose key turns out stale is requeued with its current one, unless it
  // still comes before every other candidate.
  CandidateHeap heap(uint32_t(order.size()));
  uint64_t top_of_all = 0;
  while (!heap.empty()) {
    CandidateHeap::Key top = heap.top();
    uint32_t k = CandidateHeap::position(top);
    const Candidate &c = candidates[k];
    uint64_t lowest = align_up(skyline.max(c.begin, c.end), c.alignment);
    CandidateHeap::Key current = CandidateHeap::key(lowest, k);
    if (current > top && heap.second() < current) {
      heap.replace_top(current);
      continue;
    }
    heap.pop();
    offsets[order[k]] = lowest;
    skyline.raise(c.begin, c.end, lowest + c.size);
    top_of_all = std::max(top_of_all, lowest + c.size);
  }
  return top_of_all;
}

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets) {
  return lowest_first(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0), offsets);
}

}  // namespace harena::detail
