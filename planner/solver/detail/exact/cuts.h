// Internal to the exact search: horizontal cuts of a packing.
//
// Take buffers that fill each section they span to exactly `capacity` (as a
// perfect packing does at its lower bound). If a subset S of them fills
// every one of those sections to exactly h, then S placed within [0, h) and
// the rest within [h, capacity) is a plan: two problems, each filling its
// sections exactly, instead of one. Guillotine packings are built by such
// cuts and by cuts in time (where no buffer is alive across a step, which
// the search already splits at), so their parts cut again, down to single
// buffers; the search, which sees only the whole, fails on some of them
// after a few hundred placements (docs/results/solver.md).
//
// Where a section has room to spare (capacity above what its buffers
// hold), S may hold from h less that room up to h there, and the rest at
// most capacity - h: the cuts of a packing with pieces left out.
//
// A cut need not lead to a plan (S or the rest may not pack), so a caller
// tries the parts and falls back on other cuts or the search.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "solver/detail/common/prepared.h"

namespace harena::detail {

// The heights h in (0, capacity / 2] that are, in every section the `part`
// spans, the sum of the sizes of some of the buffers alive there (plus at
// most its room), and a multiple of every alignment in `part` (so the rest
// stays aligned when raised by h). Every cut height is one, or capacity minus one (S and the
// rest trade roles). Ascending; empty when there are too many possible
// heights to track (above 2^22 multiples of the sizes' gcd). Adds its work.
std::vector<uint64_t> cut_heights(const std::vector<Item> &items, const std::vector<uint32_t> &part,
                                  uint64_t capacity, uint64_t &work);

// A partial choice known to lead nowhere: no cut may put all of `in` in S
// and all of `out` in the rest (item indices).
struct Nogood {
    std::vector<uint32_t> in, out;
};

// Finds cuts of `part` at h, neither S nor the rest empty: a search over the
// 0/1 choice of each buffer, one constraint per section (the buffers of S
// alive there sum to h, less at most its room). Each section keeps what S
// may still take there and what its undecided buffers hold; one that may
// take nothing forces its undecided buffers out, one that needs all of them
// forces them in, one with a few undecided buffers tries all their choices,
// and the forced choices are propagated until none is left. Then it
// branches on the largest undecided buffer of the section with the fewest
// undecided buffers, in S first.
// Buffers of the same shape are interchangeable, so only one choice of each
// count of them is tried. Built once per part, for any number of heights.
class CutFinder {
public:
    enum class Outcome { Found,
                         None,
                         OutOfWork };

    CutFinder(const std::vector<Item> &items, const std::vector<uint32_t> &part, uint64_t capacity);

    // What a search may do: work units and nodes (choices), each counted up
    // to its limit.
    struct Budget {
        uint64_t work = 0, max_work = 0;
        uint64_t nodes = 0, max_nodes = 0;
    };

    // Looks for a cut at h that matches none of the `nogoods`: Found (with
    // `below` = S, sorted), None when there is none, OutOfWork when the
    // budget runs out first (the search adds what it does to it).
    Outcome find(uint64_t h, const std::vector<Nogood> &nogoods, Budget &budget, std::vector<uint32_t> &below);

private:
    static constexpr int8_t kUndecided = -1;
    static constexpr uint32_t kNone = UINT32_MAX;
    static constexpr uint32_t kFew = 4;  // sections with at most this many undecided buffers try all their choices

    bool branch();
    bool assign(uint32_t k, int8_t v);
    bool propagate();
    bool settle_few(uint32_t s);
    void undo(size_t mark);

    const std::vector<Item> &items_;
    const std::vector<uint32_t> &part_;
    uint32_t first_ = 0;
    // Per section of the part's span: what S may still take (it must take
    // at least that less the room), what its undecided buffers hold, its room
    // (capacity less all its buffers hold), how many undecided buffers it has,
    // and all its buffers (indices into part_).
    std::vector<int64_t> need_, held_, slack_;
    std::vector<uint32_t> count_;
    std::vector<std::vector<uint32_t>> members_;
    std::vector<int8_t> value_;                       // per buffer of part_: 1 in S, 0 not, or kUndecided
    std::vector<uint32_t> twin_before_, twin_after_;  // the buffers of the same shape around it, or kNone
    std::vector<uint32_t> trail_;                     // decided buffers, in order
    std::vector<uint32_t> queue_;                     // sections to propagate
    // Per buffer: the nogoods that have it, and as what; per nogood: its size
    // and how many of its buffers are decided as it has them.
    std::vector<std::vector<std::pair<uint32_t, int8_t>>> watches_;
    std::vector<uint32_t> nogood_size_, nogood_matched_;
    std::vector<uint32_t> local_;  // per item: its index in part_, or kNone
    Budget *budget_ = nullptr;
    bool out_of_work_ = false;
    std::vector<uint32_t> *found_ = nullptr;
};

}  // namespace harena::detail
