#include "solver/detail/search.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include "solver/detail/floor_cover.h"
#include "solver/detail/partitions.h"
#include "solver/detail/stacking.h"
#include "solver/detail/symmetry.h"

namespace harena::detail {

namespace {

class Searcher {
public:
    Searcher(const Prepared &prepared, const SearchOrder &order, uint64_t capacity, uint64_t max_work,
             uint64_t max_nodes, const Deadline &deadline)
        : items_(prepared.items),
          preorder_(order.preorder),
          fitting_first_(order.fitting_first),
          by_preorder_(order.by_preorder),
          capacity_(capacity),
          max_work_(max_work),
          max_nodes_(max_nodes),
          deadline_(deadline),
          sections_(prepared.points > 0 ? prepared.points - 1 : 0),
          rank_(items_.size()),
          overlaps_(overlaps_of(items_)),
          members_(sections_),
          min_offset_(items_.size(), 0),
          floor_key_(items_.size(), 0),
          offset_(items_.size(), 0),
          placed_(items_.size(), 0),
          total_(sections_, 0),
          low_(sections_, UINT64_MAX),
          cuts_(sections_, 0),
          seen_(sections_, 0),
          twin_before_(twins_before(items_, preorder_)),
          later_mates_(later_mates(items_, preorder_)),
          stacking_(sections_),
          cover_(sections_, uint32_t(items_.size())) {
        for (uint32_t r = 0; r < preorder_.size(); r++)
            rank_[preorder_[r]] = r;
        for (uint32_t i = 0; i < items_.size(); i++) {
            const Item &item = items_[i];
            for (uint32_t s = item.begin; s < item.end; s++) {
                members_[s].push_back(i);
                total_[s] += item.size;
                low_[s] = 0;
            }
            for (uint32_t s = item.begin; s + 1 < item.end; s++)
                cuts_[s]++;
        }
    }

    SearchResult run() {
        SearchResult result;
        bool fits = std::all_of(items_.begin(), items_.end(), [&](const Item &i) { return i.size <= capacity_; }) &&
                    std::all_of(total_.begin(), total_.end(), [&](uint64_t t) { return t <= capacity_; });
        result.status = SearchStatus::Infeasible;
        if (items_.size() > kRankMask) {
            result.status = SearchStatus::GaveUp;  // ranks would not fit a Candidate
        } else if (fits) {
            Partition all;
            all.items.resize(items_.size());
            std::iota(all.items.begin(), all.items.end(), 0);
            result.status = solve_parts(split(all), 0, -1);
        }
        result.work = work_;
        result.check_work = check_work_;
        result.nodes = nodes_;
        if (result.status == SearchStatus::Found) result.offsets = offset_;
        return result;
    }

private:
    // The canonical order of buffers at one offset: each goes after the last
    // placed there in tie_of; so where `placed` was just placed, unplaced j
    // can go at its offset only if not before(j, placed), and with buffers
    // left to right, nothing unplaced in a section left_of it can.
    int64_t tie_of(uint32_t i) const {
        return by_preorder_ ? int64_t(rank_[i]) : int64_t(items_[i].begin);
    }
    bool before(uint32_t j, uint32_t placed) const {
        return tie_of(j) <= tie_of(placed);
    }
    bool left_of(uint32_t s, uint32_t placed) const {
        return !by_preorder_ && s < items_[placed].begin;
    }

    // Undo record: an overwritten value, or a placement.
    struct Change {
        enum Kind { MinOffset,
                    Low,
                    Placed } kind;
        uint32_t index;
        uint64_t old;
    };

    // Whether i at `offset` would rest directly on a buffer of its lifetime
    // that comes later in the preorder (see later_mates).
    bool rests_on_later_mate(uint32_t i, uint64_t offset) const {
        return std::any_of(later_mates_[i].begin(), later_mates_[i].end(),
                           [&](uint32_t j) { return placed_[j] && offset_[j] + items_[j].size == offset; });
    }

    // The unplaced items of `p`, grouped into partitions.
    std::vector<Partition> split(const Partition &p) const {
        return unplaced_partitions(items_, placed_, p);
    }

    // All parts must be solved, each after (last_offset, last_tie) like the
    // buffers they were split from.
    SearchStatus solve_parts(const std::vector<Partition> &parts, uint64_t last_offset, int64_t last_tie) {
        for (const Partition &part : parts) {
            SearchStatus status = next(part, last_offset, last_tie);
            if (status != SearchStatus::Found) return status;
        }
        return SearchStatus::Found;
    }

    // Places the next buffer of `p` at or above `last_offset`, and after
    // `last_tie` (tie_of) when at the same offset (buffers at one offset are
    // never alive together, so placing them in any fixed order loses
    // nothing), then goes on. Leaves the placements in place when Found, undoes them otherwise.
    SearchStatus next(const Partition &p, uint64_t last_offset, int64_t last_tie) {
        uint64_t min_top = UINT64_MAX;
        if (unplaced_of(p, min_top) == 0) return SearchStatus::Found;
        work_ += 2 * p.items.size();
        if (work_ >= max_work_ || check_work_ / kCheckWorkPerWork >= max_work_ || nodes_ >= max_nodes_ ||
            ((++nodes_ & 255) == 0 && deadline_.expired())) {
            return SearchStatus::GaveUp;
        }
        for (const Candidate candidate : candidates_of(p, last_offset, last_tie, min_top)) {
            const uint64_t offset = uint64_t(candidate >> 64);
            const uint32_t i = preorder_[uint32_t(candidate) & kRankMask];
            const int64_t begin = tie_of(i);

            // With nothing unplaced alive at the same time, i can go at its
            // lowest offset in any plan from here (MiniMalloc's hatless
            // pruning): a plan in which a later candidate comes first would,
            // with i moved down to this offset, be found by placing i now. So if
            // placing i now fails, so does every other choice.
            const bool hatless =
                std::all_of(overlaps_[i].begin(), overlaps_[i].end(), [&](uint32_t j) { return placed_[j]; });
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
            if (status == SearchStatus::GaveUp || hatless) return status;
        }
        return SearchStatus::Infeasible;
    }

    // The number of unplaced buffers of `p`; `min_top` gets the lowest top
    // any of them could have.
    size_t unplaced_of(const Partition &p, uint64_t &min_top) const {
        size_t unplaced = 0;
        for (uint32_t i : p.items) {
            if (placed_[i]) continue;
            unplaced++;
            min_top = std::min(min_top, min_offset_[i] + items_[i].size);
        }
        return unplaced;
    }

    // (lowest offset, begin, misfit, rank) in one integer, sorted as one: 64,
    // 32, 2 and 30 bits (run() gives up on 2^30 buffers or more).
    using Candidate = unsigned __int128;
    static constexpr uint32_t kRankMask = (uint32_t(1) << 30) - 1;

    // The buffers next() tries, in order: by offset and begin, as the
    // canonical order places them; then, with fitting_first_, those that fit
    // the floor as the pieces of a tiling do (misfit_of); then by the
    // preorder. Every later placement is at its offset or higher, so one at
    // or above `min_top` would leave an unplaced buffer floating over a gap:
    // the plan with it dropped into the gap is found on another branch. Only
    // the buffers that can go lower are candidates.
    std::vector<Candidate> candidates_of(const Partition &p, uint64_t last_offset, int64_t last_tie,
                                         uint64_t min_top) const {
        std::vector<Candidate> candidates;
        for (uint32_t i : p.items) {
            const uint64_t offset = min_offset_[i];
            if (placed_[i] || offset >= min_top || offset + items_[i].size > capacity_) continue;
            if (offset < last_offset || (offset == last_offset && tie_of(i) <= last_tie)) continue;
            if (twin_before_[i] != kNoTwin && !placed_[twin_before_[i]]) continue;
            if (rests_on_later_mate(i, offset)) continue;
            const uint32_t misfit = fitting_first_ ? misfit_of(i, offset, p, last_offset) : 0;
            const uint32_t begin = by_preorder_ ? 0 : items_[i].begin;
            candidates.push_back(Candidate(offset) << 64 | Candidate(begin) << 32 | misfit << 30 | rank_[i]);
        }
        std::sort(candidates.begin(), candidates.end());
        return candidates;
    }

    // How badly i at `offset` fits the floor: 2 when it does not end where
    // the floor steps, plus 1 when its top meets no floor nor the capacity.
    uint32_t misfit_of(uint32_t i, uint64_t offset, const Partition &p, uint64_t last_offset) const {
        auto floor_at = [&](uint32_t s) { return std::max(low_[s], last_offset); };
        const Item &item = items_[i];
        const uint64_t top = offset + item.size;
        bool end_fits = item.end >= p.last || total_[item.end] == 0 || floor_at(item.end) != offset;
        bool top_fits = top == capacity_ ||
                        (item.begin > p.first && total_[item.begin - 1] > 0 && floor_at(item.begin - 1) == top) ||
                        (item.end < p.last && total_[item.end] > 0 && floor_at(item.end) == top);
        return (end_fits ? 0 : 2) + (top_fits ? 0 : 1);
    }

    // Places item i and updates the bounds; returns false if the partial plan
    // can no longer be completed within the capacity. Sets `cut` when no
    // unplaced buffer is alive across some step inside i's lifetime any more.
    bool place(uint32_t i, uint64_t offset, const Partition &p, bool &cut) {
        const Item &item = items_[i];
        offset_[i] = offset;
        placed_[i] = 1;
        floor_key_[i] = UINT64_MAX;
        changes_.push_back({Change::Placed, i, 0});
        uint64_t top = offset + item.size;
        bool ok = true;
        // A section's unplaced buffers go no lower than the lowest of their
        // lowest offsets (MiniMalloc's unallocated floor). That lowest can only
        // rise, and only where the buffer that leaves the section (i) or rises
        // (those alive with i) held it: only those sections are recomputed.
        stamp_++;
        touched_.clear();
        auto touch_where_lowest = [&](const Item &changed, uint64_t old_offset) {
            for (uint32_t s = changed.begin; s < changed.end; s++) {
                if (low_[s] == old_offset && seen_[s] != stamp_) {
                    seen_[s] = stamp_;
                    touched_.push_back(s);
                }
            }
        };
        for (uint32_t s = item.begin; s < item.end; s++) {
            total_[s] -= item.size;
            if (s + 1 < item.end && --cuts_[s] == 0) cut = true;
        }
        touch_where_lowest(item, offset);
        raised_.clear();
        for (uint32_t j : overlaps_[i]) {
            if (placed_[j]) continue;
            uint64_t lowest = align_up(top, items_[j].alignment);
            if (lowest <= min_offset_[j]) continue;
            raised_.push_back(j);
            changes_.push_back({Change::MinOffset, j, min_offset_[j]});
            touch_where_lowest(items_[j], min_offset_[j]);
            min_offset_[j] = lowest;
            floor_key_[j] = lowest;
            if (lowest + items_[j].size > capacity_) ok = false;
        }
        if (!ok) return false;
        for (uint32_t s : touched_) {
            uint64_t low = UINT64_MAX;
            for (uint32_t j : members_[s])
                low = std::min(low, floor_key_[j]);
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
            uint64_t lowest = std::max(low_[s], left_of(s, i) ? offset + 1 : offset);
            if (total_[s] > 0 && lowest + total_[s] > capacity_) return false;
        }
        return sections_can_be_stacked(i, offset) && floors_can_be_covered(p, i, offset);
    }

    // The floors of the sections where the unplaced bytes fill the section
    // exactly up to the capacity (always, in a perfect packing) must be
    // covered level by level (see FloorCover). Buffers at `offset` go only
    // right of the one just placed, so the others, and the sections left of
    // it, start above `offset`. A check that finds many dead ends at once,
    // long before the search would fill a level and fail.
    bool floors_can_be_covered(const Partition &p, uint32_t placed, uint64_t offset) {
        floors_.resize(p.last - p.first);
        for (uint32_t s = p.first; s < p.last; s++) {
            const uint64_t floor = std::max(low_[s], left_of(s, placed) ? offset + 1 : offset);
            floors_[s - p.first] = total_[s] > 0 && floor + total_[s] == capacity_ ? floor : FloorCover::kFree;
        }
        pieces_.clear();
        for (uint32_t j : p.items) {
            if (placed_[j]) continue;
            const Item &item = items_[j];
            pieces_.push_back({item.begin, item.end, std::max(min_offset_[j], before(j, placed) ? offset + 1 : offset)});
        }
        work_ += p.items.size() + (p.last - p.first);  // as the check of the lowest level only was (search.h)
        check_work_ += p.items.size() + (p.last - p.first);
        return cover_.possible(p.first, p.last, floors_, pieces_);
    }

    // In a section, the unplaced buffers that can go below a height h must
    // fill the bytes from the floor to h, but for the room the section has to
    // spare (stacking.h). Checked, for each buffer's lowest offset as h, in the
    // sections whose buffers changed: those of i and of the buffers it raised.
    bool sections_can_be_stacked(uint32_t i, uint64_t offset) {
        stacking_.next_plan();
        auto check = [&](uint32_t s) {
            if (total_[s] == 0 || !stacking_.first_visit(s)) return true;
            const uint64_t floor = std::max(low_[s], left_of(s, i) ? offset + 1 : offset);
            stacking_.start(floor, capacity_ - total_[s] - floor);
            for (uint32_t j : members_[s]) {
                if (placed_[j]) continue;
                stacking_.add(std::max(min_offset_[j], before(j, i) ? offset + 1 : offset), items_[j].size);
            }
            check_work_ += members_[s].size();
            return stacking_.possible(check_work_);
        };
        for (uint32_t s = items_[i].begin; s < items_[i].end; s++) {
            if (!check(s)) return false;
        }
        for (uint32_t j : raised_) {
            for (uint32_t s = items_[j].begin; s < items_[j].end; s++) {
                if (!check(s)) return false;
            }
        }
        return true;
    }

    void undo(size_t mark) {
        while (changes_.size() > mark) {
            const Change c = changes_.back();
            changes_.pop_back();
            switch (c.kind) {
            case Change::MinOffset:
                min_offset_[c.index] = floor_key_[c.index] = c.old;
                break;
            case Change::Low:
                low_[c.index] = c.old;
                break;
            case Change::Placed: {
                const Item &item = items_[c.index];
                placed_[c.index] = 0;
                floor_key_[c.index] = min_offset_[c.index];
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
    const bool fitting_first_;
    const bool by_preorder_;
    const uint64_t capacity_;
    const uint64_t max_work_;
    const uint64_t max_nodes_;
    const Deadline &deadline_;
    const uint32_t sections_;
    std::vector<uint32_t> rank_;  // position of each item in preorder_
    std::vector<std::vector<uint32_t>> overlaps_;
    std::vector<std::vector<uint32_t>> members_;  // per section: items alive in it
    std::vector<uint64_t> min_offset_;            // lowest aligned offset above the placed buffers an item is alive with
    std::vector<uint64_t> floor_key_;             // min_offset_ while unplaced, UINT64_MAX once placed: sections take the least
    std::vector<uint64_t> offset_;
    std::vector<uint8_t> placed_;  // bytes, not bits: read for every member of every section checked
    std::vector<uint64_t> total_;  // per section: bytes of unplaced buffers
    std::vector<uint64_t> low_;    // per section: lowest min_offset_ of its unplaced buffers
    std::vector<uint32_t> cuts_;   // per step between sections s and s + 1: unplaced buffers alive across it
    std::vector<uint64_t> seen_;   // per section: stamp_ when last touched, to collect each once
    std::vector<uint32_t> touched_;
    uint64_t stamp_ = 0;
    std::vector<uint32_t> twin_before_;               // the interchangeable buffer that must be placed first, or kNoTwin
    std::vector<std::vector<uint32_t>> later_mates_;  // buffers of an item's lifetime it may not rest on, if placed
    std::vector<uint32_t> raised_;                    // scratch: items whose lowest offset the last placement raised
    StackingCheck stacking_;
    FloorCover cover_;
    std::vector<uint64_t> floors_;  // scratch: per section of the partition, the level to cover or kFree
    std::vector<Piece> pieces_;     // scratch: unplaced buffers of the partition, by begin
    std::vector<Change> changes_;
    uint64_t work_ = 0;
    uint64_t check_work_ = 0;
    uint64_t nodes_ = 0;
};

}  // namespace

SearchResult search(const Prepared &prepared, const SearchOrder &order, uint64_t capacity, uint64_t max_work,
                    uint64_t max_nodes, const Deadline &deadline) {
    return Searcher(prepared, order, capacity, max_work, max_nodes, deadline).run();
}

}  // namespace harena::detail
