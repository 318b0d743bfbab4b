#include "solver/detail/greedy/free_list.h"

#include <algorithm>

namespace harena::detail {

namespace {

// The first range ending above x, in ranges sorted by both ends.
template<typename It>
It first_ending_above(It first, It last, uint64_t x) {
    return std::upper_bound(first, last, x, [](uint64_t v, const auto &r) { return v < r.hi; });
}

}  // namespace

FreeList::FreeList()
    : ranges_{{{0, UINT64_MAX}}}, end_{UINT64_MAX}, longest_{0} {
}

size_t FreeList::block_after(uint64_t x) const {
    return size_t(std::upper_bound(end_.begin(), end_.end(), x) - end_.begin());
}

void FreeList::measure(size_t block) {
    uint64_t longest = 0;
    for (const Range &r : ranges_[block]) {
        if (r.hi != UINT64_MAX) longest = std::max(longest, r.hi - r.lo);
    }
    longest_[block] = longest;
    end_[block] = ranges_[block].back().hi;
}

void FreeList::take(uint64_t lo, uint64_t hi) {
    for (size_t b = block_after(lo); b < ranges_.size();) {
        std::vector<Range> &ranges = ranges_[b];
        if (ranges.front().lo >= hi) break;
        const bool last_touched = ranges.back().hi >= hi;
        const size_t before = ranges.size();
        auto it = first_ending_above(ranges.begin(), ranges.end(), lo);
        if (it->lo < lo && it->hi > hi) {  // strictly inside one range: split it
            Range right{hi, it->hi};
            it->hi = lo;
            ranges.insert(it + 1, right);
        } else {
            if (it->lo < lo) {
                it->hi = lo;
                ++it;
            }
            auto end = it;
            while (end != ranges.end() && end->hi <= hi)
                ++end;
            it = ranges.erase(it, end);
            if (it != ranges.end() && it->lo < hi) it->lo = hi;
        }
        size_ = size_ + ranges.size() - before;
        const auto at = [](auto &v, size_t b) { return v.begin() + std::ptrdiff_t(b); };
        if (ranges.empty()) {  // never the last block: its unbounded range survives
            ranges_.erase(at(ranges_, b));
            end_.erase(at(end_, b));
            longest_.erase(at(longest_, b));
            continue;
        }
        if (ranges.size() > 2 * kSplitAt) {
            std::vector<Range> upper(ranges.begin() + kSplitAt, ranges.end());
            ranges.resize(kSplitAt);
            ranges_.insert(at(ranges_, b + 1), std::move(upper));
            end_.insert(at(end_, b + 1), 0);
            longest_.insert(at(longest_, b + 1), 0);
            measure(b + 1);
        } else if (ranges.size() < kSplitAt / 4 && b + 1 < ranges_.size() &&
                   ranges.size() + ranges_[b + 1].size() <= kSplitAt) {
            // Keep blocks from dwindling into many tiny ones.
            ranges.insert(ranges.end(), ranges_[b + 1].begin(), ranges_[b + 1].end());
            ranges_.erase(at(ranges_, b + 1));
            end_.erase(at(end_, b + 1));
            longest_.erase(at(longest_, b + 1));
        }
        measure(b);
        if (last_touched) break;
        b++;
    }
}

uint64_t FreeList::next_fit(uint64_t from, uint64_t size, uint64_t alignment) const {
    for (size_t b = block_after(from);; b++) {
        if (b + 1 < ranges_.size() && longest_[b] < size) continue;  // the last block holds the unbounded range
        const std::vector<Range> &ranges = ranges_[b];
        for (auto it = first_ending_above(ranges.begin(), ranges.end(), from); it != ranges.end(); ++it) {
            // check_problem keeps every offset plus size far below UINT64_MAX,
            // so the unbounded range always holds the buffer.
            uint64_t at = (std::max(it->lo, from) + alignment - 1) & ~(alignment - 1);
            if (at <= it->hi && it->hi - at >= size) return at;
        }
    }
}

}  // namespace harena::detail
