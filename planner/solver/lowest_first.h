// Internal to the solver: the lowest-first pass. Repeatedly places, among
// all unplaced buffers, the one that can go lowest, on top of the buffers it
// is alive with (ties go to the earlier buffer in a given order). Offsets
// come out in nondecreasing order, so this is the first plan the exact
// search would build without a capacity; unlike first fit it never leaves a
// gap that a buffer placed later could have used, and it suits problems
// whose lifetimes interlock (random lifetimes, packings) where first fit
// fragments.
//
// A bias per buffer changes which buffer goes next: the one whose lowest
// offset plus bias is smallest. Each buffer still goes as low as it can
// when its turn comes, so the plan stays valid, but offsets no longer come
// out in order: a positive bias lets a buffer wait while others settle
// below it (slack_bias: buffers whose busiest time leaves room to spare), a
// negative one brings it forward (the squeaky wheel's lever on buffers
// that end too high).
//
// A buffer's lowest offset is the highest skyline over its lifetime, which
// each candidate keeps up to date as buffers alive with it are placed; the
// heap of candidates is keyed by possibly stale lowest offsets, corrected
// when they reach the front. About O(n log n) plus O(log n) per correction,
// plus O(1) per pair of buffers alive at the same time.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/prepared.h"

namespace harena::detail {

// When a pass gives up before placing every buffer: after this much work (a
// check of a candidate's lowest offset, or a raise of one candidate's level
// by a placement, counts one). A pass that gives up returns at least
// give_up_at, UINT64_MAX when that is none: its partial plan is no plan.
struct LowestFirstLimits {
    uint64_t work = UINT64_MAX;
};

// Returns the arena; offsets is indexed like prepared.items. `order` is a
// permutation of item indices that breaks ties. `bias` is empty (none) or
// indexed like prepared.items. Stops as soon as the arena reaches
// `give_up_at` (a plan to beat), returning an arena at least that and a
// partial plan, or once out of `limits`.
uint64_t lowest_first(const Prepared &, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets,
                      const std::vector<int64_t> &bias = {}, uint64_t give_up_at = UINT64_MAX,
                      const LowestFirstLimits &limits = {});

// The same for only the items in `order`, placed on top of `floor`: the
// heights of sections [first, first + floor.size()), which hold every one of
// their lifetimes. Without a bias lowest first places buffers by increasing
// offset, so given the tops of the buffers below some height as the floor,
// it carries on a plan from there (the squeaky wheel re-places only what is
// above it). What does not depend on the bias is built once, for passes
// that differ only in it.
class LowestFirst {
public:
    LowestFirst(const Prepared &, const std::vector<uint32_t> &order, uint32_t first,
                const std::vector<uint64_t> &floor);

    // Sets the offsets of the items in order (offsets is indexed like
    // prepared.items and at least that long) and returns their highest top;
    // bias, give_up_at and limits as for lowest_first above.
    uint64_t run(std::vector<uint64_t> &offsets, const std::vector<int64_t> &bias = {},
                 uint64_t give_up_at = UINT64_MAX, const LowestFirstLimits &limits = {});

    // How many items the last run placed: all of them unless it gave up.
    uint32_t placed() const {
        return placed_;
    }

private:
    // The items by position in order, relative to `first`: the loop reads one
    // of these per check, so they are packed in heap-key order rather than
    // reached through order and items.
    struct Candidate {
        uint32_t begin, end;
        uint64_t size, alignment;
        int64_t bias;
    };
    bool out_of_limits(const LowestFirstLimits &);
    // Raises the level of every candidate alive with `c`, now placed with
    // its top at `placed_top`; returns how many levels it raised.
    uint64_t raise(const Candidate &c, uint64_t placed_top);

    const std::vector<uint32_t> order_;
    std::vector<Candidate> candidates_;
    // Each candidate's skyline (the highest section over its lifetime, before
    // alignment) at the start, from the floor, and during a pass, kept exact
    // as buffers are placed: a placement raises it for every candidate alive
    // with the placed buffer, so that a stale heap key costs one lookup to
    // correct rather than a range query. Stale keys come up about 18 times
    // per buffer on random lifetimes; the raises are a few dozen sequential
    // reads and scattered writes per placement, far cheaper.
    std::vector<uint64_t> start_level_, level_;
    // The candidates alive with a placed buffer are those alive in its first
    // section and those that begin later within its lifetime. The first come
    // from a segment tree over sections whose node v lists the candidates
    // whose lifetime covers v's span but not its parent's (on the path from
    // the section's leaf to the root); the second are a range of the
    // candidates by first section. Both are flat lists with a start index
    // per node or section.
    uint32_t leaves_ = 1;
    std::vector<uint32_t> node_start_, covering_;
    std::vector<uint32_t> begin_start_, by_begin_;
    uint32_t placed_ = 0;
    uint64_t work_ = 0;  // of the last run, as LowestFirstLimits counts it
};

}  // namespace harena::detail
