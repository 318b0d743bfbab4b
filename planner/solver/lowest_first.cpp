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
  offsets.resize(prepared.items.size());
  const uint32_t n = uint32_t(order.size());
  const uint32_t sections = uint32_t(floor.size());
  // The items by position in order, relative to `first`: the loop reads one
  // of these per check, so they are packed in heap-key order rather than
  // reached through order and items.
  struct Candidate {
    uint32_t begin, end;
    uint64_t size, alignment;
  };
  std::vector<Candidate> candidates(n);
  for (uint32_t k = 0; k < n; k++) {
    const Item &item = prepared.items[order[k]];
    candidates[k] = {item.begin - first, item.end - first, item.size, item.alignment};
  }

  // Each candidate's skyline (the highest section over its lifetime, before
  // alignment), kept exact as buffers are placed: a placement raises it for
  // every candidate alive with the placed buffer, so that a stale heap key
  // costs one lookup to correct rather than a range query. Stale keys come
  // up about 17 times per buffer on random lifetimes; the raises are a few
  // dozen sequential reads and scattered writes per placement, far cheaper.
  std::vector<uint64_t> level(n);
  {
    Skyline skyline(floor);
    for (uint32_t k = 0; k < n; k++) level[k] = skyline.max(candidates[k].begin, candidates[k].end);
  }
  // The candidates alive with a placed buffer are those alive in its first
  // section and those that begin later within its lifetime. The first come
  // from a segment tree over sections whose node v lists the candidates
  // whose lifetime covers v's span but not its parent's (on the path from
  // the section's leaf to the root); the second are a range of the
  // candidates by first section. Both are flat lists with a start index
  // per node or section, built once per pass.
  uint32_t leaves = 1;
  while (leaves < sections) leaves *= 2;
  std::vector<uint32_t> node_start(2 * size_t(leaves) + 1, 0), covering;
  auto for_each_node = [&](const Candidate &c, auto &&visit) {
    for (uint32_t l = c.begin + leaves, r = c.end + leaves; l < r; l >>= 1, r >>= 1) {
      if (l & 1) visit(l++);
      if (r & 1) visit(--r);
    }
  };
  for (const Candidate &c : candidates) for_each_node(c, [&](uint32_t v) { node_start[v + 1]++; });
  for (size_t v = 0; v < 2 * size_t(leaves); v++) node_start[v + 1] += node_start[v];
  covering.resize(node_start.back());
  {
    std::vector<uint32_t> fill(node_start.begin(), node_start.end() - 1);
    for (uint32_t k = 0; k < n; k++) for_each_node(candidates[k], [&](uint32_t v) { covering[fill[v]++] = k; });
  }
  std::vector<uint32_t> begin_start(size_t(sections) + 1, 0), by_begin(n);
  for (const Candidate &c : candidates) begin_start[c.begin + 1]++;
  for (uint32_t t = 0; t < sections; t++) begin_start[t + 1] += begin_start[t];
  {
    std::vector<uint32_t> fill(begin_start.begin(), begin_start.end() - 1);
    for (uint32_t k = 0; k < n; k++) by_begin[fill[candidates[k].begin]++] = k;
  }

  // Keyed by lowest offset as last computed, which only grows: a candidate
  // whose key turns out stale is requeued with its current one, unless it
  // still comes before every other candidate.
  CandidateHeap heap(n);
  uint64_t top_of_all = 0;
  while (!heap.empty()) {
    CandidateHeap::Key top = heap.top();
    uint32_t k = CandidateHeap::position(top);
    const Candidate &c = candidates[k];
    uint64_t lowest = align_up(level[k], c.alignment);
    CandidateHeap::Key current = CandidateHeap::key(lowest, k);
    if (current > top && heap.second() < current) {
      heap.replace_top(current);
      continue;
    }
    heap.pop();
    offsets[order[k]] = lowest;
    const uint64_t placed_top = lowest + c.size;
    top_of_all = std::max(top_of_all, placed_top);
    // Placed candidates are raised too: cheaper than telling them apart.
    for (uint32_t v = c.begin + leaves; v >= 1; v >>= 1) {
      for (uint32_t j = node_start[v]; j < node_start[v + 1]; j++) {
        level[covering[j]] = std::max(level[covering[j]], placed_top);
      }
    }
    for (uint32_t j = begin_start[c.begin + 1]; j < begin_start[c.end]; j++) {
      level[by_begin[j]] = std::max(level[by_begin[j]], placed_top);
    }
  }
  return top_of_all;
}

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets) {
  return lowest_first(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0), offsets);
}

}  // namespace harena::detail
