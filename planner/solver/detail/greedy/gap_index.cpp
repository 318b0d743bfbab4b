#include "solver/detail/greedy/gap_index.h"

#include <algorithm>

namespace harena::detail {

GapIndex::GapIndex(uint32_t sections) {
    while (leaves_ < sections)
        leaves_ *= 2;
    own_.assign(2 * size_t(leaves_), 0);
    below_.assign(2 * size_t(leaves_), 0);
    lists_.emplace_back();
}

void GapIndex::clear() {
    std::fill(own_.begin(), own_.end(), 0);
    std::fill(below_.begin(), below_.end(), 0);
    lists_.resize(1);
}

FreeList &GapIndex::writable(std::vector<uint32_t> &which, uint32_t v) {
    if (which[v] == 0) {
        which[v] = uint32_t(lists_.size());
        lists_.emplace_back();
    }
    return lists_[which[v]];
}

void GapIndex::insert(uint32_t begin, uint32_t end, uint64_t offset, uint64_t size) {
    const uint64_t lo = offset, hi = offset + size;
    for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
        if (l & 1) {
            writable(own_, l).take(lo, hi);
            writable(below_, l).take(lo, hi);
            l++;
        }
        if (r & 1) {
            --r;
            writable(own_, r).take(lo, hi);
            writable(below_, r).take(lo, hi);
        }
    }
    // Ancestors of canonical nodes: the nodes on the paths from the first and
    // last section up whose spans reach outside [begin, end).
    for (uint32_t height = 1, a = (begin + leaves_) >> 1, b = (end - 1 + leaves_) >> 1; a >= 1;
         height++, a >>= 1, b >>= 1) {
        for (uint32_t v : {a, b}) {
            uint64_t span_lo = uint64_t(v - (leaves_ >> height)) << height, span_hi = span_lo + (uint64_t(1) << height);
            if (span_lo < begin || span_hi > end) writable(below_, v).take(lo, hi);
            if (a == b) break;
        }
    }
}

uint64_t GapIndex::lowest_fit(uint32_t begin, uint32_t end, uint64_t size, uint64_t alignment) {
    scratch_.clear();
    auto add = [&](uint32_t list) {
        if (list != 0) scratch_.push_back({&lists_[list], lists_[list].top()});
    };
    for (uint32_t l = begin + leaves_, r = end + leaves_; l < r; l >>= 1, r >>= 1) {
        if (l & 1) add(below_[l++]);
        if (r & 1) add(below_[--r]);
    }
    for (uint32_t height = 1, a = (begin + leaves_) >> 1, b = (end - 1 + leaves_) >> 1; a >= 1;
         height++, a >>= 1, b >>= 1) {
        for (uint32_t v : {a, b}) {
            uint64_t span_lo = uint64_t(v - (leaves_ >> height)) << height, span_hi = span_lo + (uint64_t(1) << height);
            if (span_lo < begin || span_hi > end) add(own_[v]);
            if (a == b) break;
        }
    }
    // Leapfrog: y only rises, and stops once every list holds [y, y + size).
    // A list that moves y goes to the front, to be asked first after the
    // next move: a few lists do most of the moving.
    std::sort(scratch_.begin(), scratch_.end(), [](const Ask &a, const Ask &b) { return a.top > b.top; });
    const size_t k = scratch_.size();
    uint64_t y = 0;
    for (size_t i = 0, agreed = 0; agreed < k;) {
        uint64_t next = y >= scratch_[i].top ? y : scratch_[i].list->next_fit(y, size, alignment);
        if (next == y) {
            agreed++;
            i = i + 1 == k ? 0 : i + 1;
        } else {
            y = next;
            std::swap(scratch_[0], scratch_[i]);
            agreed = 1;
            i = k > 1 ? 1 : 0;
        }
    }
    return y;
}

}  // namespace harena::detail
