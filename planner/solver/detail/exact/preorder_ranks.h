// Internal to the exact search: its preorder as ranks, which a part of the
// buffers may redraw for itself (MiniMalloc's preorders, orders.h) until the
// search leaves that part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"

namespace harena::detail {

class PreorderRanks {
public:
    // `preorder`: a permutation of item indices, earlier first.
    explicit PreorderRanks(const std::vector<uint32_t> &preorder);

    uint32_t rank_of(uint32_t item) const {
        return rank_[item];
    }
    uint32_t item_at(uint32_t rank) const {
        return preorder_[rank];
    }

    // Sorts `part` (item indices) by `key`, reading T from most_unplaced,
    // and gives its items the ranks they hold among themselves in that
    // order, so the ranks stay a permutation. Returns the mark to restore.
    size_t redraw(Preorder key, const std::vector<Item> &, const std::vector<uint64_t> &most_unplaced,
                  const std::vector<uint32_t> &part);
    // Gives back the ranks held before the redraws since `mark`.
    void restore(size_t mark);

private:
    std::vector<uint32_t> preorder_;                    // rank -> item
    std::vector<uint32_t> rank_;                        // item -> rank
    std::vector<std::pair<uint32_t, uint32_t>> saved_;  // (item, rank) to restore, last redraw last
    std::vector<uint32_t> slots_, sorted_;              // scratch
};

}  // namespace harena::detail
