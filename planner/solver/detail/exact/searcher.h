// Internal to the exact search (search.h): its state and steps, defined in
// search.cpp (the search itself: which buffer goes next) and
// search_place.cpp (placing a buffer, the checks that prune, undoing).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "solver/detail/exact/floor_cover.h"
#include "solver/detail/exact/partitions.h"
#include "solver/detail/exact/preorder_ranks.h"
#include "solver/detail/exact/search.h"
#include "solver/detail/exact/stacking.h"
#include "solver/detail/exact/symmetry.h"

namespace harena::detail {

class Searcher {
public:
    Searcher(const Prepared &, const SearchOrder &, uint64_t capacity, uint64_t max_work, uint64_t max_nodes,
             const Deadline &);

    SearchResult run();

private:
    // The canonical order of buffers at one offset: each goes after the last
    // placed there in tie_of; so where `placed` was just placed, unplaced j
    // can go at its offset only if not before(j, placed), and with buffers
    // left to right, nothing unplaced in a section left_of it can.
    int64_t tie_of(uint32_t i) const {
        return by_preorder_ ? int64_t(ranks_.rank_of(i)) : int64_t(items_[i].begin);
    }
    bool before(uint32_t j, uint32_t placed) const {
        return tie_of(j) <= tie_of(placed);
    }
    bool left_of(uint32_t s, uint32_t placed) const {
        return !by_preorder_ && s < items_[placed].begin;
    }

    // Undo record: an overwritten value, or a placement.
    struct Change {
        enum Kind : uint32_t { MinOffset,
                               Low,
                               Placed };
        Change(Kind kind, uint32_t index, uint64_t old)
            : kind(kind), index(index), old(old) {
        }
        Kind kind;
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
    // buffers they were split from; a part that takes a preorder of its own
    // only at or above last_offset, in any order there (which keeps every
    // plan the fixed preorder keeps).
    SearchStatus solve_parts(const std::vector<Partition> &parts, uint64_t last_offset, int64_t last_tie);

    // Redraws the preorder of `part` (all unplaced) by reorder_, from the
    // bytes still unplaced in each section; returns the mark to restore.
    size_t redraw_preorder(const Partition &part);

    // Places the next buffer of `p` at or above `last_offset`, and after
    // `last_tie` (tie_of) when at the same offset (buffers at one offset are
    // never alive together, so placing them in any fixed order loses
    // nothing), then goes on. Leaves the placements in place when Found, undoes them otherwise.
    SearchStatus next(const Partition &p, uint64_t last_offset, int64_t last_tie);

    // The number of unplaced buffers of `p`; `min_top` gets the lowest top
    // any of them could have.
    size_t unplaced_of(const Partition &p, uint64_t &min_top) const;

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
                                         uint64_t min_top) const;

    // How badly i at `offset` fits the floor: 2 when it does not end where
    // the floor steps, plus 1 when its top meets no floor nor the capacity.
    uint32_t misfit_of(uint32_t i, uint64_t offset, const Partition &p, uint64_t last_offset) const;

    // Places item i and updates the bounds; returns false if the partial plan
    // can no longer be completed within the capacity. Sets `cut` when no
    // unplaced buffer is alive across some step inside i's lifetime any more.
    bool place(uint32_t i, uint64_t offset, const Partition &p, bool &cut);

    // The floors of the sections where the unplaced bytes fill the section
    // exactly up to the capacity (always, in a perfect packing) must be
    // covered level by level (see FloorCover). Buffers at `offset` go only
    // right of the one just placed, so the others, and the sections left of
    // it, start above `offset`. A check that finds many dead ends at once,
    // long before the search would fill a level and fail.
    bool floors_can_be_covered(const Partition &p, uint32_t placed, uint64_t offset);

    // In a section, the unplaced buffers that can go below a height h must
    // fill the bytes from the floor to h, but for the room the section has to
    // spare (stacking.h). Checked, for each buffer's lowest offset as h, in the
    // sections whose buffers changed: those of i and of the buffers it raised.
    bool sections_can_be_stacked(uint32_t i, uint64_t offset);

    void undo(size_t mark);

    const std::vector<Item> &items_;
    const bool fitting_first_;
    const bool by_preorder_;
    const Preorder reorder_;
    const uint64_t capacity_;
    const uint64_t max_work_;
    const uint64_t max_nodes_;
    const Deadline &deadline_;
    const uint32_t sections_;
    PreorderRanks ranks_;                  // the preorder, as redrawn for the part being solved
    std::vector<uint64_t> most_unplaced_;  // scratch for redraw_preorder: per item, its T (orders.h)
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

}  // namespace harena::detail
