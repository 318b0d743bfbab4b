#include "solver/detail/exact/symmetry.h"

#include <algorithm>
#include <cstddef>
#include <tuple>

namespace harena::detail {

std::vector<uint32_t> twins_before(const std::vector<Item> &items, const std::vector<uint32_t> &preorder) {
    auto shape = [&](uint32_t i) { return std::make_tuple(items[i].begin, items[i].end, items[i].size, items[i].alignment); };
    std::vector<uint32_t> by_shape(preorder);
    std::stable_sort(by_shape.begin(), by_shape.end(), [&](uint32_t a, uint32_t b) { return shape(a) < shape(b); });
    std::vector<uint32_t> before(items.size(), kNoTwin);
    for (size_t k = 1; k < by_shape.size(); k++) {
        if (shape(by_shape[k]) == shape(by_shape[k - 1])) before[by_shape[k]] = by_shape[k - 1];
    }
    return before;
}

std::vector<std::vector<uint32_t>> later_mates(const std::vector<Item> &items, const std::vector<uint32_t> &preorder) {
    auto lifetime = [&](uint32_t i) { return std::make_tuple(items[i].begin, items[i].end, items[i].alignment); };
    std::vector<uint32_t> by_lifetime;
    for (uint32_t i : preorder) {
        if (items[i].size % items[i].alignment == 0) by_lifetime.push_back(i);
    }
    std::stable_sort(by_lifetime.begin(), by_lifetime.end(),
                     [&](uint32_t a, uint32_t b) { return lifetime(a) < lifetime(b); });
    std::vector<std::vector<uint32_t>> later(items.size());
    for (size_t first = 0, last; first < by_lifetime.size(); first = last) {
        last = first + 1;
        while (last < by_lifetime.size() && lifetime(by_lifetime[last]) == lifetime(by_lifetime[first]))
            last++;
        for (size_t x = first; x + 1 < last; x++) {
            later[by_lifetime[x]].assign(by_lifetime.begin() + std::ptrdiff_t(x + 1), by_lifetime.begin() + std::ptrdiff_t(last));
        }
    }
    return later;
}

}  // namespace harena::detail
