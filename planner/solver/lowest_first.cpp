#include "solver/lowest_first.h"

#include <algorithm>

namespace harena::detail {

namespace {

// Skyline over sections: range max and range raise, as a segment tree whose
// node v holds `raised` (the highest value raised over all of v's span) and
// `max` (the maximum anywhere in v's span). Iterative, both O(log sections).
class Skyline {
 public:
  explicit Skyline(uint32_t sections) {
    while (leaves_ < sections) leaves_ *= 2;
    max_.assign(2 * size_t(leaves_), 0);
    raised_.assign(2 * size_t(leaves_), 0);
  }

  uint64_t max(uint32_t begin, uint32_t end) const {
    uint64_t result = 0;
    for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
      if (l & 1) result = std::max(result, max_[l++]);
      if (r & 1) result = std::max(result, max_[--r]);
    }
    // Raises over spans that contain the range's first or last section: on
    // the paths from those leaves to the root, which meet at some node.
    uint32_t l = (begin + leaves_) >> 1, r = (end - 1 + leaves_) >> 1;
    for (; l != r; l >>= 1, r >>= 1) result = std::max({result, raised_[l], raised_[r]});
    for (; l >= 1; l >>= 1) result = std::max(result, raised_[l]);
    return result;
  }

  void raise(uint32_t begin, uint32_t end, uint64_t to) {
    for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
      if (l & 1) raise_node(l++, to);
      if (r & 1) raise_node(--r, to);
    }
    for (uint32_t leaf : {begin + leaves_, end - 1 + leaves_}) {
      for (uint32_t v = leaf >> 1; v >= 1; v >>= 1) {
        max_[v] = std::max({raised_[v], max_[2 * v], max_[2 * v + 1]});
      }
    }
  }

 private:
  void raise_node(uint32_t v, uint64_t to) {
    raised_[v] = std::max(raised_[v], to);
    max_[v] = std::max(max_[v], to);
  }

  uint32_t leaves_ = 1;
  std::vector<uint64_t> max_;
  std::vector<uint64_t> raised_;
};

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
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
      if (c + 1 < n && keys_[c + 1] < keys_[c]) c++;
      if (!(keys_[c] < k)) break;
      keys_[i] = keys_[c];
    }
    keys_[i] = k;
  }

  std::vector<Key> keys_;
};

}  // namespace

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets) {
  const std::vector<Item> &items = prepared.items;
  Skyline skyline(prepared.points);
  offsets.assign(items.size(), 0);

  // Keyed by lowest offset as last computed, which only grows: a candidate
  // whose key turns out stale is requeued with its current one, unless it
  // still comes before every other candidate.
  CandidateHeap heap(uint32_t(order.size()));
  uint64_t arena = 0;
  while (!heap.empty()) {
    CandidateHeap::Key top = heap.top();
    uint32_t k = CandidateHeap::position(top);
    const Item &item = items[order[k]];
    uint64_t lowest = align_up(skyline.max(item.begin, item.end), item.alignment);
    CandidateHeap::Key current = CandidateHeap::key(lowest, k);
    if (current > top && heap.second() < current) {
      heap.replace_top(current);
      continue;
    }
    heap.pop();
    offsets[order[k]] = lowest;
    skyline.raise(item.begin, item.end, lowest + item.size);
    arena = std::max(arena, lowest + item.size);
  }
  return arena;
}

}  // namespace harena::detail
