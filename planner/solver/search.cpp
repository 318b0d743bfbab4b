#include "solver/search.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

namespace harena::detail {

namespace {

// Unplaced buffers whose lifetimes chain together, and the sections they
// span; separate partitions share no time and so can be solved one by one.
struct Partition {
  std::vector<uint32_t> items;
  uint32_t first = 0, last = 0;  // sections [first, last)
};

class Searcher {
 public:
  Searcher(const Prepared &prepared, const std::vector<uint32_t> &preorder, uint64_t capacity, uint64_t max_work,
           uint64_t max_nodes, const Deadline &deadline)
      : items_(prepared.items),
        preorder_(preorder),
        capacity_(capacity),
        max_work_(max_work),
        max_nodes_(max_nodes),
        deadline_(deadline),
        sections_(prepared.points > 0 ? prepared.points - 1 : 0),
        rank_(items_.size()),
        overlaps_(items_.size()),
        members_(sections_),
        min_offset_(items_.size(), 0),
        offset_(items_.size(), 0),
        placed_(items_.size(), false),
        total_(sections_, 0),
        low_(sections_, UINT64_MAX),
        cuts_(sections_, 0),
        seen_(sections_, 0) {
    for (uint32_t r = 0; r < preorder.size(); r++) rank_[preorder[r]] = r;
    find_overlaps();
    for (uint32_t i = 0; i < items_.size(); i++) {
      const Item &item = items_[i];
      for (uint32_t s = item.begin; s < item.end; s++) {
        members_[s].push_back(i);
        total_[s] += item.size;
        low_[s] = 0;
      }
      for (uint32_t s = item.begin; s + 1 < item.end; s++) cuts_[s]++;
    }
  }

  SearchResult run() {
    SearchResult result;
    bool fits = std::all_of(items_.begin(), items_.end(), [&](const Item &i) { return i.size <= capacity_; }) &&
                std::all_of(total_.begin(), total_.end(), [&](uint64_t t) { return t <= capacity_; });
    result.status = SearchStatus::Infeasible;
    if (fits) {
      Partition all;
      all.items.resize(items_.size());
      std::iota(all.items.begin(), all.items.end(), 0);
      result.status = solve_parts(split(all), 0, -1);
    }
    result.work = work_;
    result.nodes = nodes_;
    if (result.status == SearchStatus::Found) result.offsets = offset_;
    return result;
  }

 private:
  // Undo record: an overwritten value, or a placement.
  struct Change {
    enum Kind { MinOffset, Low, Placed } kind;
    uint32_t index;
    uint64_t old;
  };

  void find_overlaps() {
    std::vector<uint32_t> by_begin(items_.size());
    std::iota(by_begin.begin(), by_begin.end(), 0);
    std::sort(by_begin.begin(), by_begin.end(),
              [&](uint32_t a, uint32_t b) { return items_[a].begin < items_[b].begin; });
    for (size_t x = 0; x < by_begin.size(); x++) {
      uint32_t i = by_begin[x];
      for (size_t y = x + 1; y < by_begin.size() && items_[by_begin[y]].begin < items_[i].end; y++) {
        overlaps_[i].push_back(by_begin[y]);
        overlaps_[by_begin[y]].push_back(i);
      }
    }
  }

  // The unplaced items of `p`, grouped into partitions.
  std::vector<Partition> split(const Partition &p) const {
    std::vector<uint32_t> left;
    for (uint32_t i : p.items) {
      if (!placed_[i]) left.push_back(i);
    }
    std::sort(left.begin(), left.end(), [&](uint32_t a, uint32_t b) {
      return items_[a].begin != items_[b].begin ? items_[a].begin < items_[b].begin : a < b;
    });
    std::vector<Partition> parts;
    for (uint32_t i : left) {
      if (parts.empty() || items_[i].begin >= parts.back().last) {
        parts.push_back({{}, items_[i].begin, items_[i].end});
      }
      parts.back().items.push_back(i);
      parts.back().last = std::max(parts.back().last, items_[i].end);
    }
    return parts;
  }

  // All parts must be solved, each after (last_offset, last_begin) like the
  // buffers they were split from.
  SearchStatus solve_parts(const std::vector<Partition> &parts, uint64_t last_offset, int64_t last_begin) {
    for (const Partition &part : parts) {
      SearchStatus status = next(part, last_offset, last_begin);
      if (status != SearchStatus::Found) return status;
    }
    return SearchStatus::Found;
  }

  // Places the next buffer of `p` at or above `last_offset`, and right of
  // `last_begin` when at the same offset (buffers at one offset are never
  // alive together, so placing them left to right loses nothing), then goes
  // on. Leaves the placements in place when Found, undoes them otherwise.
  SearchStatus next(const Partition &p, uint64_t last_offset, int64_t last_begin) {
    std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> candidates;  // (lowest offset, begin, rank)
    uint64_t min_top = UINT64_MAX;
    for (uint32_t i : p.items) {
      if (placed_[i]) continue;
      candidates.emplace_back(min_offset_[i], items_[i].begin, rank_[i]);
      min_top = std::min(min_top, min_offset_[i] + items_[i].size);
    }
    if (candidates.empty()) return SearchStatus::Found;
    work_ += p.items.size() + candidates.size();
    if (work_ >= max_work_ || nodes_ >= max_nodes_ || ((++nodes_ & 255) == 0 && deadline_.expired())) {
      return SearchStatus::GaveUp;
    }
    std::sort(candidates.begin(), candidates.end());

    for (const auto &[offset, begin, rank] : candidates) {
      uint32_t i = preorder_[rank];
      if (offset < last_offset || (offset == last_offset && int64_t(begin) <= last_begin)) continue;
      // Every buffer placed from now on starts at `offset` or higher, so a
      // buffer that fits entirely below it would be left floating over a
      // gap: the plan with that buffer dropped into the gap is found on
      // another branch.
      if (offset >= min_top) break;
      if (offset + items_[i].size > capacity_) continue;

      size_t mark = changes_.size();
      bool cut = false;
      SearchStatus status = SearchStatus::Infeasible;
      if (place(i, offset, p, cut)) {
        std::vector<Partition> parts;
        if (cut) parts = split(p);
        status = parts.size() > 1 ? solve_parts(parts, offset, begin) : next(p, offset, begin);
      }
      if (status == SearchStatus::Found) return status;
      undo(mark);
      if (status == SearchStatus::GaveUp) return status;
    }
    return SearchStatus::Infeasible;
  }

  // Places item i and updates the bounds; returns false if the partial plan
  // can no longer be completed within the capacity. Sets `cut` when no
  // unplaced buffer is alive across some step inside i's lifetime any more.
  bool place(uint32_t i, uint64_t offset, const Partition &p, bool &cut) {
    const Item &item = items_[i];
    offset_[i] = offset;
    placed_[i] = true;
    changes_.push_back({Change::Placed, i, 0});
    uint64_t top = offset + item.size;
    bool ok = true;
    stamp_++;
    for (uint32_t s = item.begin; s < item.end; s++) {
      total_[s] -= item.size;
      seen_[s] = stamp_;
      if (s + 1 < item.end && --cuts_[s] == 0) cut = true;
    }
    touched_.clear();
    for (uint32_t s = item.begin; s < item.end; s++) touched_.push_back(s);
    for (uint32_t j : overlaps_[i]) {
      if (placed_[j]) continue;
      uint64_t lowest = align_up(top, items_[j].alignment);
      if (lowest <= min_offset_[j]) continue;
      changes_.push_back({Change::MinOffset, j, min_offset_[j]});
      min_offset_[j] = lowest;
      if (lowest + items_[j].size > capacity_) ok = false;
      for (uint32_t s = items_[j].begin; s < items_[j].end; s++) {
        if (seen_[s] != stamp_) {
          seen_[s] = stamp_;
          touched_.push_back(s);
        }
      }
    }
    if (!ok) return false;
    // A section's unplaced buffers go no lower than the lowest of their
    // lowest offsets (MiniMalloc's unallocated floor).
    for (uint32_t s : touched_) {
      uint64_t low = UINT64_MAX;
      for (uint32_t j : members_[s]) {
        if (!placed_[j]) low = std::min(low, min_offset_[j]);
      }
      work_ += members_[s].size();
      if (low != low_[s]) {
        changes_.push_back({Change::Low, s, low_[s]});
        low_[s] = low;
      }
    }
    // Everything left in p goes at `offset` or above, stacked in each
    // section above its floor; left of i, only above `offset`, since
    // buffers at one offset are placed left to right.
    work_ += p.last - p.first + overlaps_[i].size();
    for (uint32_t s = p.first; s < p.last; s++) {
      uint64_t lowest = std::max(low_[s], s < item.begin ? offset + 1 : offset);
      if (total_[s] > 0 && lowest + total_[s] > capacity_) return false;
    }
    return true;
  }

  void undo(size_t mark) {
    while (changes_.size() > mark) {
      const Change c = changes_.back();
      changes_.pop_back();
      switch (c.kind) {
        case Change::MinOffset: min_offset_[c.index] = c.old; break;
        case Change::Low: low_[c.index] = c.old; break;
        case Change::Placed: {
          const Item &item = items_[c.index];
          placed_[c.index] = false;
          for (uint32_t s = item.begin; s < item.end; s++) {
            total_[s] += item.size;
            if (s + 1 < item.end) cuts_[s]++;
          }
          break;
        }
      }
    }
  }

  const std::vector<Item> &items_;
  const std::vector<uint32_t> &preorder_;
  const uint64_t capacity_;
  const uint64_t max_work_;
  const uint64_t max_nodes_;
  const Deadline &deadline_;
  const uint32_t sections_;
  std::vector<uint32_t> rank_;  // position of each item in preorder_
  std::vector<std::vector<uint32_t>> overlaps_;
  std::vector<std::vector<uint32_t>> members_;  // per section: items alive in it
  std::vector<uint64_t> min_offset_;  // lowest aligned offset above the placed buffers an item is alive with
  std::vector<uint64_t> offset_;
  std::vector<bool> placed_;
  std::vector<uint64_t> total_;  // per section: bytes of unplaced buffers
  std::vector<uint64_t> low_;    // per section: lowest min_offset_ of its unplaced buffers
  std::vector<uint32_t> cuts_;   // per step between sections s and s + 1: unplaced buffers alive across it
  std::vector<uint64_t> seen_;   // per section: stamp_ when last touched, to collect each once
  std::vector<uint32_t> touched_;
  uint64_t stamp_ = 0;
  std::vector<Change> changes_;
  uint64_t work_ = 0;
  uint64_t nodes_ = 0;
};

}  // namespace

SearchResult search(const Prepared &prepared, const std::vector<uint32_t> &preorder, uint64_t capacity,
                    uint64_t max_work, uint64_t max_nodes, const Deadline &deadline) {
  return Searcher(prepared, preorder, capacity, max_work, max_nodes, deadline).run();
}

}  // namespace harena::detail
