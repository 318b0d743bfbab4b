// Internal to the solver: the free space that placed buffers leave, indexed
// by time, so that "the lowest offset at which s bytes are free during
// sections [b, e)" needs no scan of the placed buffers alive then. Scanning
// them (and sorting them by offset) is what makes best fit and first fit
// quadratic when thousands of buffers are alive at once.
//
// A segment tree over sections. A placed buffer is stored at the O(log S)
// nodes whose spans tile its lifetime (its canonical nodes). Each node v
// keeps two lists of free address ranges, sorted and disjoint:
//   - `own`: free of the buffers stored at v, which cover v's whole span and
//     so are all alive together (their ranges are disjoint);
//   - `below`: free at every section of v's span of the buffers stored at v
//     or under it: own(v) intersected with below() of both children.
// A placement takes its range out of own() of its canonical nodes and out
// of below() of those and of every ancestor (below(a) of an ancestor is
// below(c) intersected with more, so this keeps it exact).
//
// A query's range is tiled by its canonical nodes q: s bytes at y are free
// throughout it when they lie in below(q) of each q and in own(a) of each
// node a above some q (the buffers stored there cover q as well). These
// O(log S) lists are intersected lazily, by leapfrogging: each list in
// turn moves y up to its first free range that holds s bytes at or above
// y, until all agree. The highest list goes first: below its top a buffer
// fits only in its holes, and in a tight packing it has few, so y usually
// lands at once on the answer or on that top, above which the lower lists
// agree without being read.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/greedy/free_list.h"

namespace harena::detail {

class GapIndex {
public:
    // An index over `sections` time sections with nothing placed.
    explicit GapIndex(uint32_t sections);

    // The lowest multiple of `alignment` (a power of two) at which
    // [offset, offset + size) is free at every section of [begin, end),
    // begin < end <= sections, size > 0.
    uint64_t lowest_fit(uint32_t begin, uint32_t end, uint64_t size, uint64_t alignment);

    // Marks [offset, offset + size) taken during sections [begin, end). The
    // range must be free then (as lowest_fit finds it).
    void insert(uint32_t begin, uint32_t end, uint64_t offset, uint64_t size);

    // Forgets every placement.
    void clear();

private:
    // The list of node v of one of the two kinds, created on first change:
    // an untouched node's lists are all free and share lists_[0].
    FreeList &writable(std::vector<uint32_t> &which, uint32_t v);

    uint32_t leaves_ = 1;
    std::vector<uint32_t> own_, below_;  // per node: index into lists_, 0 while untouched
    std::vector<FreeList> lists_;
    // The lists a query intersects, with their tops (everything above a
    // list's top is free in it).
    struct Ask {
        const FreeList *list;
        uint64_t top;
    };
    std::vector<Ask> scratch_;
};

}  // namespace harena::detail
