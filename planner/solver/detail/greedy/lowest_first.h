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
// A buffer's lowest offset is the highest skyline over its lifetime, read
// from a segment tree over time sections (skyline.h) when the buffer comes
// up; the queue holds possibly stale keys, corrected when they reach the
// front. Buffers alive for most of the program would come up stale at
// almost every placement, since almost every placement raises some part of
// their lifetime; they are queued in bundles instead: buffers of one
// alignment whose lifetimes begin near each other and end near each other
// share the sections that all of them span (the core), and the bundle is
// keyed by the core's height, a lower bound of each member's lowest offset.
// A placement re-queues a bundle once, not each member. A member whose own
// lifetime is higher than the core when its turn comes leaves the bundle
// and is queued on its own. About O((n + corrections) log n).
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/prepared.h"
#include "solver/detail/greedy/skyline.h"

namespace harena::detail {

// The queue of a run (lowest_first.cpp).
class CandidateHeap;

// When a pass gives up before placing every buffer: after this much work (a
// check of a candidate's or a bundle's lowest offset, placing it or not,
// counts one)...
//
// ...or, with a `pace`, as soon as it falls behind it: when its work reaches
// pace / 32, pace / 16, ..., pace / 2, a pass that has placed a smaller
// share of its items than that share of `pace` gives up, since at that rate
// it would not finish within `pace`. The checks stop at half: from there a
// pass that is due to run out does so soon enough. Where lowest first
// fights the skyline the first check shows it: on a program of 1,000,000
// buffers, 150,000 alive at once, where a pass needs 87 checks per buffer
// (20 s), it has placed 1% of them after 4 per buffer (pace / 32 at 128);
// on the published traces and the generated families up to 100,000
// buffers, every pass the default options run has placed at least 1/32
// by then (of the passes they skip, one has 1.4% on somas_pangu_2.6B).
//
// A pass that gives up returns at least give_up_at, UINT64_MAX when that is
// none: its partial plan is no plan.
struct LowestFirstLimits {
    uint64_t work = UINT64_MAX;
    uint64_t pace = 0;  // 0: no pace
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

    // The work of the last run, as LowestFirstLimits counts it.
    uint64_t work() const {
        return work_;
    }

    // Whether the last run gave up because it fell behind its pace.
    bool fell_behind() const {
        return fell_behind_;
    }

private:
    // The items by position in order, relative to `first`: the loop reads one
    // of these per check, so they are packed rather than reached through
    // order and items.
    struct Candidate {
        uint32_t begin, end;
        uint64_t size, alignment;
        int64_t bias;
    };
    // Buffers of one alignment whose lifetimes all span sections [core_begin,
    // core_end). members[next..] are those still bundled, by (bias,
    // position) once a run starts: for any core height that is the order of
    // their lower bounds.
    struct Bundle {
        uint32_t core_begin, core_end;
        uint64_t alignment;
        uint64_t start_level;  // the core's height on the floor
        std::vector<uint32_t> members;
        size_t next = 0;
    };
    void make_bundles();
    // Buffers alive for fewer sections are never bundled.
    static constexpr uint32_t kMinBundled = 8;
    // Fills the queue for a run.
    void queue_all(CandidateHeap &heap);
    // Whether the queue's top (a bundle's next member, or a candidate on its
    // own) is due to be placed now, at `lowest`, and takes it off the queue;
    // else requeues it under its corrected key.
    bool take_bundled(unsigned __int128 top, CandidateHeap &heap, const Skyline &skyline, uint64_t &lowest);
    bool take_alone(unsigned __int128 top, CandidateHeap &heap, const Skyline &skyline, uint64_t &lowest);
    // Sets candidate k's offset and raises the skyline under it.
    void place(uint32_t k, uint64_t offset, Skyline &, std::vector<uint64_t> &offsets, uint64_t &top_of_all);

    const std::vector<uint32_t> order_;
    const std::vector<uint64_t> floor_;
    std::vector<Candidate> candidates_;
    // Each candidate's skyline (the highest section over its lifetime, before
    // alignment) on the floor: where its key starts.
    std::vector<uint64_t> start_level_;
    std::vector<Bundle> bundles_;
    // Per candidate: its bundle, or kAlone once it is queued on its own.
    static constexpr uint32_t kAlone = UINT32_MAX;
    std::vector<uint32_t> bundle_of_, start_bundle_of_;
    // Whether the run has placed at least its share of the items at this
    // much work, as LowestFirstLimits::pace asks.
    bool on_pace(uint64_t pace) const;

    uint32_t placed_ = 0;
    uint64_t work_ = 0;  // of the last run, as LowestFirstLimits counts it
    bool fell_behind_ = false;
};

}  // namespace harena::detail
