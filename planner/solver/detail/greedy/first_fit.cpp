#include "solver/detail/greedy/first_fit.h"

#include <algorithm>

namespace harena::detail {

uint64_t first_fit(const Prepared &prepared, GapIndex &index, const std::vector<uint32_t> &order,
                   std::vector<uint64_t> &offsets, uint64_t give_up_at) {
    index.clear();
    offsets.resize(prepared.items.size());
    uint64_t arena = 0;
    for (uint32_t i : order) {
        const Item &item = prepared.items[i];
        offsets[i] = index.lowest_fit(item.begin, item.end, item.size, item.alignment);
        index.insert(item.begin, item.end, offsets[i], item.size);
        arena = std::max(arena, offsets[i] + item.size);
        if (arena >= give_up_at) break;
    }
    return arena;
}

}  // namespace harena::detail
