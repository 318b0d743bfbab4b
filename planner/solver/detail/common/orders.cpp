#include "solver/detail/common/orders.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "solver/solver.h"

namespace harena::detail {

std::vector<uint64_t> peak_pressure(const Prepared &prepared) {
    // Live bytes per section from a difference array (sums fit: check_problem
    // bounds the total), then a max segment tree for the per-item maxima.
    uint32_t sections = prepared.points > 0 ? prepared.points - 1 : 0;
    std::vector<uint64_t> delta(size_t(sections) + 1, 0);
    for (const Item &item : prepared.items) {
        delta[item.begin] += item.size;
        delta[item.end] -= item.size;
    }
    uint32_t leaves = 1;
    while (leaves < sections)
        leaves *= 2;
    std::vector<uint64_t> tree(2 * size_t(leaves), 0);
    uint64_t live = 0;
    for (uint32_t s = 0; s < sections; s++)
        tree[leaves + s] = live += delta[s];
    for (uint32_t v = leaves - 1; v >= 1; v--)
        tree[v] = std::max(tree[2 * v], tree[2 * v + 1]);

    std::vector<uint64_t> pressure(prepared.items.size());
    for (size_t i = 0; i < prepared.items.size(); i++) {
        uint64_t peak = 0;
        for (uint32_t l = prepared.items[i].begin + leaves, r = prepared.items[i].end + leaves; l < r; l >>= 1, r >>= 1) {
            if (l & 1) peak = std::max(peak, tree[l++]);
            if (r & 1) peak = std::max(peak, tree[--r]);
        }
        pressure[i] = peak;
    }
    return pressure;
}

std::vector<int64_t> slack_bias(const std::vector<uint64_t> &pressure, uint64_t lower_bound, double weight) {
    std::vector<int64_t> bias(pressure.size(), 0);
    if (!(weight > 0)) return bias;
    for (size_t i = 0; i < pressure.size(); i++) {
        // Below 2^62 for any weight up to 1, as the slack is below 2^63.
        double room = double(lower_bound > pressure[i] ? lower_bound - pressure[i] : 0);
        bias[i] = int64_t(std::min(weight * room, 0x1p62));
    }
    return bias;
}

std::vector<uint32_t> search_preorder(const Prepared &prepared, const std::vector<uint64_t> &pressure,
                                      bool sections_first) {
    const std::vector<Item> &items = prepared.items;
    auto key = [&](uint32_t i) {
        const unsigned __int128 area = (unsigned __int128)items[i].size * items[i].length;
        const uint32_t sections = items[i].end - items[i].begin;
        return sections_first ? std::make_tuple((unsigned __int128)sections, area, (unsigned __int128)pressure[i]) :
                                std::make_tuple((unsigned __int128)pressure[i], (unsigned __int128)sections, area);
    };
    std::vector<uint32_t> result(items.size());
    std::iota(result.begin(), result.end(), 0);
    std::sort(result.begin(), result.end(), [&](uint32_t a, uint32_t b) {
        auto ka = key(a), kb = key(b);
        return ka != kb ? ka > kb : a < b;
    });
    return result;
}

void sort_by(Preorder preorder, const std::vector<Item> &items, const std::vector<uint64_t> &most_unplaced,
             std::vector<uint32_t> &subset) {
    using Wide = unsigned __int128;
    using Key = std::tuple<Wide, Wide, Wide>;
    auto key = [&](uint32_t i) -> Key {
        const Wide t = most_unplaced[i], w = items[i].length;
        const Wide a = Wide(items[i].size) * items[i].length;
        switch (preorder) {
        case Preorder::TAW:
            return {t, a, w};
        case Preorder::WAT:
            return {w, a, t};
        default:
            return {t, w, a};
        }
    };
    std::sort(subset.begin(), subset.end(), [&](uint32_t a, uint32_t b) {
        const Key ka = key(a), kb = key(b);
        return ka != kb ? ka > kb : a < b;
    });
}

std::vector<uint32_t> preorder_of(const Prepared &prepared, Preorder preorder, const std::vector<uint64_t> &pressure) {
    std::vector<uint32_t> result(prepared.items.size());
    std::iota(result.begin(), result.end(), 0);
    sort_by(preorder, prepared.items, pressure, result);
    return result;
}

std::vector<uint32_t> make_order(const Prepared &prepared, Order order, const std::vector<uint64_t> &pressure) {
    const std::vector<Item> &items = prepared.items;
    std::vector<uint32_t> result(items.size());
    std::iota(result.begin(), result.end(), 0);
    auto length = [&](uint32_t i) { return items[i].length; };
    auto area = [&](uint32_t i) { return (unsigned __int128)items[i].size * length(i); };
    auto by = [&](auto key) {
        // Descending by key, then by index for determinism.
        std::sort(result.begin(), result.end(), [&](uint32_t a, uint32_t b) {
            auto ka = key(a), kb = key(b);
            return ka != kb ? ka > kb : a < b;
        });
    };
    switch (order) {
    case Order::SizeDesc:
        by([&](uint32_t i) { return std::make_tuple(items[i].size, length(i)); });
        break;
    case Order::AreaDesc:
        by([&](uint32_t i) { return std::make_tuple(area(i), items[i].size); });
        break;
    case Order::LengthDesc:
        by([&](uint32_t i) { return std::make_tuple(length(i), items[i].size); });
        break;
    case Order::PressureDesc:
        by([&](uint32_t i) { return std::make_tuple(pressure[i], items[i].size, length(i)); });
        break;
    case Order::SizeClassDesc:
        // Later begins sort last within a class: descending on the negation.
        by([&](uint32_t i) {
            return std::make_tuple(63 - __builtin_clzll(items[i].size), -int64_t(items[i].begin), items[i].size);
        });
        break;
    case Order::BeginAsc:
        // Later begins sort last: descending on the negated rank.
        by([&](uint32_t i) { return std::make_tuple(-int64_t(items[i].begin), items[i].size); });
        break;
    }
    return result;
}

}  // namespace harena::detail
