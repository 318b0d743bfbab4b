// Internal to the solver: a set of free address ranges, sorted and
// disjoint, the last of them unbounded; one per node of the gap index.
//
// Ranges are kept in blocks of a few dozen, each knowing its longest
// bounded range, so that finding the first range that holds s bytes skips
// whole blocks of slivers (the rounding gaps that alignment leaves after
// every buffer), and taking a range out moves at most one block's entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harena::detail {

class FreeList {
public:
    // Everything free: [0, UINT64_MAX).
    FreeList();

    // Marks [lo, hi) taken (whatever part of it is still free).
    void take(uint64_t lo, uint64_t hi);

    // The lowest multiple of `alignment` (a power of two), at least `from`
    // (itself such a multiple), at which [at, at + size) is free.
    uint64_t next_fit(uint64_t from, uint64_t size, uint64_t alignment) const;

    // Where the unbounded range starts: everything above is free.
    uint64_t top() const {
        return ranges_.back().back().lo;
    }

    // Number of free ranges.
    size_t size() const {
        return size_;
    }

private:
    struct Range {
        uint64_t lo, hi;
    };
    static constexpr size_t kSplitAt = 64;

    // The first block with a range ending above x.
    size_t block_after(uint64_t x) const;
    // Updates what the block's summaries say about it.
    void measure(size_t block);

    // Per block, as parallel arrays: searches read only the small summaries.
    std::vector<std::vector<Range>> ranges_;  // never empty
    std::vector<uint64_t> end_;               // where the block's last range ends
    std::vector<uint64_t> longest_;           // the block's longest bounded range, hi - lo
    size_t size_ = 1;
};

}  // namespace harena::detail
