// Internal to the solver: the skyline over time sections, the height each
// section is filled to, as a segment tree with range max and range raise
// (max with a value), both O(log sections) and iterative. Node v holds
// `raised` (the highest value raised over all of v's span) and `max` (the
// maximum anywhere in v's span).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace harena::detail {

class Skyline {
public:
    // `heights` gives the starting height of each section.
    explicit Skyline(const std::vector<uint64_t> &heights) {
        while (leaves_ < heights.size())
            leaves_ *= 2;
        max_.assign(2 * size_t(leaves_), 0);
        raised_.assign(2 * size_t(leaves_), 0);
        std::copy(heights.begin(), heights.end(), max_.begin() + leaves_);
        for (uint32_t v = leaves_ - 1; v >= 1; v--)
            max_[v] = std::max(max_[2 * v], max_[2 * v + 1]);
    }

    // The highest section in [begin, end), begin < end.
    uint64_t max(uint32_t begin, uint32_t end) const {
        uint64_t result = 0;
        for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
            if (l & 1) result = std::max(result, max_[l++]);
            if (r & 1) result = std::max(result, max_[--r]);
        }
        // Raises over spans that contain the range's first or last section: on
        // the paths from those leaves to the root, which meet at some node.
        uint32_t l = (begin + leaves_) >> 1, r = (end - 1 + leaves_) >> 1;
        for (; l != r; l >>= 1, r >>= 1)
            result = std::max({result, raised_[l], raised_[r]});
        for (; l >= 1; l >>= 1)
            result = std::max(result, raised_[l]);
        return result;
    }

    // Sections [begin, end) rise to at least `to`.
    void raise(uint32_t begin, uint32_t end, uint64_t to) {
        for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
            if (l & 1) raise_node(l++, to);
            if (r & 1) raise_node(--r, to);
        }
        for (uint32_t leaf : {begin + leaves_, end - 1 + leaves_}) {
            for (uint32_t v = leaf >> 1; v >= 1; v >>= 1) {
                max_[v] = std::max({raised_[v], max_[2 * v], max_[2 * v + 1]});
            }
        }
    }

    // The height of each of the first `sections` sections, in O(leaves).
    std::vector<uint64_t> heights(uint32_t sections) const {
        // Top-down: a node's height is its own raise or any ancestor's.
        std::vector<uint64_t> down(2 * size_t(leaves_), 0);
        for (uint32_t v = 1; v < 2 * leaves_; v++)
            down[v] = std::max(raised_[v], down[v / 2]);
        std::vector<uint64_t> result(sections);
        for (uint32_t s = 0; s < sections; s++)
            result[s] = std::max(max_[leaves_ + s], down[leaves_ + s]);
        return result;
    }

private:
    void raise_node(uint32_t v, uint64_t to) {
        raised_[v] = std::max(raised_[v], to);
        max_[v] = std::max(max_[v], to);
    }

    uint32_t leaves_ = 1;
    std::vector<uint64_t> max_;
    std::vector<uint64_t> raised_;
};

}  // namespace harena::detail
