#include <algorithm>
#include <numeric>
#include <utility>

#include "solver/detail/exact/search.h"
#include "solver/detail/exact/searcher.h"

namespace harena::detail {

Searcher::Searcher(const Prepared &prepared, const SearchOrder &order, uint64_t capacity, uint64_t max_work,
                   uint64_t max_nodes, const Deadline &deadline)
    : items_(prepared.items),
      fitting_first_(order.fitting_first),
      by_preorder_(order.by_preorder),
      reorder_(order.by_preorder ? order.reorder : Preorder::Fixed),
      capacity_(capacity),
      max_work_(max_work),
      max_nodes_(max_nodes),
      deadline_(deadline),
      sections_(prepared.points > 0 ? prepared.points - 1 : 0),
      ranks_(order.preorder),
      most_unplaced_(reorder_ != Preorder::Fixed ? items_.size() : 0),
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
      twin_before_(twins_before(items_, order.preorder)),
      later_mates_(later_mates(items_, order.preorder)),
      stacking_(sections_),
      cover_(sections_, uint32_t(items_.size())) {
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

SearchResult Searcher::run() {
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

SearchStatus Searcher::solve_parts(const std::vector<Partition> &parts, uint64_t last_offset, int64_t last_tie) {
    for (const Partition &part : parts) {
        SearchStatus status;
        if (reorder_ == Preorder::Fixed) {
            status = next(part, last_offset, last_tie);
        } else {
            const size_t mark = redraw_preorder(part);
            status = next(part, last_offset, -1);
            ranks_.restore(mark);
        }
        if (status != SearchStatus::Found) return status;
    }
    return SearchStatus::Found;
}

size_t Searcher::redraw_preorder(const Partition &part) {
    for (uint32_t i : part.items) {
        uint64_t most = 0;
        for (uint32_t s = items_[i].begin; s < items_[i].end; s++)
            most = std::max(most, total_[s]);
        work_ += items_[i].end - items_[i].begin;
        most_unplaced_[i] = most;
    }
    return ranks_.redraw(reorder_, items_, most_unplaced_, part.items);
}

SearchStatus Searcher::next(const Partition &p, uint64_t last_offset, int64_t last_tie) {
    uint64_t min_top = UINT64_MAX;
    if (unplaced_of(p, min_top) == 0) return SearchStatus::Found;
    work_ += 2 * p.items.size();
    if (work_ >= max_work_ || check_work_ / kCheckWorkPerWork >= max_work_ || nodes_ >= max_nodes_ ||
        ((++nodes_ & 255) == 0 && deadline_.expired())) {
        return SearchStatus::GaveUp;
    }
    for (const Candidate candidate : candidates_of(p, last_offset, last_tie, min_top)) {
        const uint64_t offset = uint64_t(candidate >> 64);
        const uint32_t i = ranks_.item_at(uint32_t(candidate) & kRankMask);
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
            // A part that splits off takes its own preorder (reorder_)
            // even where it is the only one left.
            const bool apart = parts.size() > 1 || (reorder_ != Preorder::Fixed && !parts.empty());
            status = apart ? solve_parts(parts, offset, begin) : next(p, offset, begin);
        }
        if (status == SearchStatus::Found) return status;
        undo(mark);
        if (status == SearchStatus::GaveUp || hatless) return status;
    }
    return SearchStatus::Infeasible;
}

size_t Searcher::unplaced_of(const Partition &p, uint64_t &min_top) const {
    size_t unplaced = 0;
    for (uint32_t i : p.items) {
        if (placed_[i]) continue;
        unplaced++;
        min_top = std::min(min_top, min_offset_[i] + items_[i].size);
    }
    return unplaced;
}

std::vector<Searcher::Candidate> Searcher::candidates_of(const Partition &p, uint64_t last_offset, int64_t last_tie,
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
        candidates.push_back(Candidate(offset) << 64 | Candidate(begin) << 32 | misfit << 30 | ranks_.rank_of(i));
    }
    std::sort(candidates.begin(), candidates.end());
    return candidates;
}

uint32_t Searcher::misfit_of(uint32_t i, uint64_t offset, const Partition &p, uint64_t last_offset) const {
    auto floor_at = [&](uint32_t s) { return std::max(low_[s], last_offset); };
    const Item &item = items_[i];
    const uint64_t top = offset + item.size;
    bool end_fits = item.end >= p.last || total_[item.end] == 0 || floor_at(item.end) != offset;
    bool top_fits = top == capacity_ ||
                    (item.begin > p.first && total_[item.begin - 1] > 0 && floor_at(item.begin - 1) == top) ||
                    (item.end < p.last && total_[item.end] > 0 && floor_at(item.end) == top);
    return (end_fits ? 0 : 2) + (top_fits ? 0 : 1);
}

SearchResult search(const Prepared &prepared, const SearchOrder &order, uint64_t capacity, uint64_t max_work,
                    uint64_t max_nodes, const Deadline &deadline) {
    return Searcher(prepared, order, capacity, max_work, max_nodes, deadline).run();
}

}  // namespace harena::detail
