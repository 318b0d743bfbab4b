#include <algorithm>

#include "solver/detail/exact/searcher.h"

namespace harena::detail {

bool Searcher::place(uint32_t i, uint64_t offset, const Partition &p, bool &cut) {
    const Item &item = items_[i];
    offset_[i] = offset;
    placed_[i] = 1;
    floor_key_[i] = UINT64_MAX;
    changes_.emplace_back(Change::Placed, i, 0);
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
        changes_.emplace_back(Change::MinOffset, j, min_offset_[j]);
        touch_where_lowest(items_[j], min_offset_[j]);
        min_offset_[j] = lowest;
        floor_key_[j] = lowest;
        if (lowest + items_[j].size > capacity_) ok = false;
    }
    if (!ok) return false;
    for (uint32_t s : touched_) {
        // The lowest can only rise: another buffer still at the old one
        // settles it. Charged the whole scan, as a count of the work.
        uint64_t low = UINT64_MAX;
        for (uint32_t j : members_[s]) {
            low = std::min(low, floor_key_[j]);
            if (low == low_[s]) break;
        }
        work_ += members_[s].size();
        if (low != low_[s]) {
            changes_.emplace_back(Change::Low, s, low_[s]);
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

bool Searcher::floors_can_be_covered(const Partition &p, uint32_t placed, uint64_t offset) {
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

bool Searcher::sections_can_be_stacked(uint32_t i, uint64_t offset) {
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

void Searcher::undo(size_t mark) {
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

}  // namespace harena::detail
