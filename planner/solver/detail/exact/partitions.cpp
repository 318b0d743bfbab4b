#include "solver/detail/exact/partitions.h"

#include <algorithm>

namespace harena::detail {

std::vector<Partition> unplaced_partitions(const std::vector<Item> &items, const std::vector<uint8_t> &placed,
                                           const Partition &p) {
    std::vector<uint32_t> left;
    for (uint32_t i : p.items) {
        if (!placed[i]) left.push_back(i);
    }
    std::sort(left.begin(), left.end(), [&](uint32_t a, uint32_t b) {
        return items[a].begin != items[b].begin ? items[a].begin < items[b].begin : a < b;
    });
    std::vector<Partition> parts;
    for (uint32_t i : left) {
        if (parts.empty() || items[i].begin >= parts.back().last) parts.push_back({{}, items[i].begin, items[i].end});
        parts.back().items.push_back(i);
        parts.back().last = std::max(parts.back().last, items[i].end);
    }
    return parts;
}

}  // namespace harena::detail
