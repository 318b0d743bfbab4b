#include "solver/detail/exact/preorder_ranks.h"

#include <algorithm>

namespace harena::detail {

PreorderRanks::PreorderRanks(const std::vector<uint32_t> &preorder)
    : preorder_(preorder), rank_(preorder.size()) {
    for (uint32_t r = 0; r < preorder_.size(); r++)
        rank_[preorder_[r]] = r;
}

size_t PreorderRanks::redraw(Preorder key, const std::vector<Item> &items, const std::vector<uint64_t> &most_unplaced,
                             const std::vector<uint32_t> &part) {
    const size_t mark = saved_.size();
    slots_.clear();
    for (uint32_t i : part) {
        slots_.push_back(rank_[i]);
        saved_.push_back({i, rank_[i]});
    }
    std::sort(slots_.begin(), slots_.end());
    sorted_ = part;
    sort_by(key, items, most_unplaced, sorted_);
    for (size_t k = 0; k < slots_.size(); k++) {
        rank_[sorted_[k]] = slots_[k];
        preorder_[slots_[k]] = sorted_[k];
    }
    return mark;
}

void PreorderRanks::restore(size_t mark) {
    while (saved_.size() > mark) {
        const auto [item, rank] = saved_.back();
        saved_.pop_back();
        rank_[item] = rank;
        preorder_[rank] = item;
    }
}

}  // namespace harena::detail
