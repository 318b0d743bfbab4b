#include "solver/detail/exact/decompose.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>
#include <utility>

#include "solver/detail/exact/cuts.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/exact/search.h"
#include "solver/problem.h"
#include "solver/solver.h"

namespace harena::detail {

namespace {

// Cuts tried per part, and per height of a part, before it is left to the
// search.
constexpr size_t kCutsPerPart = 64;
constexpr size_t kCutsPerHeight = 32;
// The search for a cut at one height gets this much work per buffer of the
// part in the first round over the heights, four times more in each round
// after, up to kCutWorkPerBuffer. A cut that leads to a plan is usually
// found with little work, while ruling out a height that has none can take
// much more; in height order alone, a part of 262 buffers ruled out 307
// heights (a quarter of a second) before reaching its cut.
constexpr uint64_t kFirstCutWorkPerBuffer = 64;
constexpr uint64_t kCutWorkPerBuffer = 1 << 16;
// A unit of the cut search's work takes about this many of the exact
// search's (about a nanosecond), and is charged so.
constexpr uint64_t kCutWorkScale = 4;
// The search of a part that no cut splits: runs with each order in turn,
// the work limit doubling from round to round, from the part's buffers
// squared up to this many times that (at least 4 times). Kept small: in a
// guillotine packing, a part that no cut splits comes from a wrong cut
// further up, which another cut there corrects sooner.
constexpr uint64_t kPartSearchWorkPerBufferSquared = 4;

// Heights at which a group spanning sections [first, last) was shown to
// have no cut. A part of it that spans the same sections has none there
// either: a cut of the part at h, with the same sections, is one of the
// group (its S fills each of them to h), and the group's cuts at h and at
// its capacity - h are the same cuts, S and the rest trading roles, so both
// are ruled out by one search. Parts skip them.
struct Refuted {
    uint32_t first = 0, last = 0;
    std::vector<uint64_t> heights;  // sorted
};

class Decomposer {
public:
    Decomposer(const Prepared &prepared, uint64_t max_work, uint64_t max_nodes, const Deadline &deadline)
        : items_(prepared.items),
          max_work_(max_work),
          max_nodes_(max_nodes),
          deadline_(deadline),
          offsets_(prepared.items.size(), 0) {
    }

    DecomposeResult run(uint64_t capacity) {
        std::vector<uint32_t> all(items_.size());
        std::iota(all.begin(), all.end(), 0);
        DecomposeResult result;
        result.found = solve(all, capacity, 0, nullptr);
        result.work = work_;
        result.nodes = nodes_;
        if (result.found) result.offsets = std::move(offsets_);
        return result;
    }

private:
    std::pair<uint32_t, uint32_t> span_of(const std::vector<uint32_t> &group) const {
        uint32_t first = UINT32_MAX, last = 0;
        for (uint32_t i : group) {
            first = std::min(first, items_[i].begin);
            last = std::max(last, items_[i].end);
        }
        return {first, last};
    }

    bool out_of_budget() const {
        return work_ >= max_work_ || nodes_ >= max_nodes_ || deadline_.expired();
    }

    // Plans `part` within [base, base + capacity): each group of buffers
    // whose lifetimes chain together on its own.
    bool solve(const std::vector<uint32_t> &part, uint64_t capacity, uint64_t base, const Refuted *refuted) {
        std::vector<uint32_t> by_begin(part);
        std::sort(by_begin.begin(), by_begin.end(), [&](uint32_t a, uint32_t b) {
            return items_[a].begin != items_[b].begin ? items_[a].begin < items_[b].begin : a < b;
        });
        work_ += by_begin.size();
        std::vector<uint32_t> group;
        uint32_t last = 0;
        for (uint32_t i : by_begin) {
            if (!group.empty() && items_[i].begin >= last) {
                if (!solve_group(group, capacity, base, refuted)) return false;
                group.clear();
            }
            group.push_back(i);
            last = group.size() == 1 ? items_[i].end : std::max(last, items_[i].end);
        }
        return group.empty() || solve_group(group, capacity, base, refuted);
    }

    // A group that no step splits: by a cut, or by the search.
    bool solve_group(const std::vector<uint32_t> &group, uint64_t capacity, uint64_t base, const Refuted *refuted) {
        if (out_of_budget()) return false;
        std::vector<uint32_t> key(group);
        std::sort(key.begin(), key.end());
        key.push_back(uint32_t(capacity));
        key.push_back(uint32_t(capacity >> 32));
        if (failed_.count(key) == 0) {
            if (solve_group_uncached(group, capacity, base, refuted)) return true;
            if (!out_of_budget()) failed_.insert(std::move(key));
        }
        failed_group_ = group;
        return false;
    }

    // The nogood for a cut whose part on one side (in S: `in_s`) had a
    // group that failed: that group, with none of the other buffers alive
    // during it on the same side (else they would be in the group).
    Nogood nogood_of(const std::vector<uint32_t> &failed, bool in_s, const std::vector<uint32_t> &group) const {
        const auto [first, last] = span_of(failed);
        std::vector<uint32_t> sorted(failed);
        std::sort(sorted.begin(), sorted.end());
        std::vector<uint32_t> others;
        for (uint32_t i : group) {
            if (items_[i].begin < last && first < items_[i].end && !std::binary_search(sorted.begin(), sorted.end(), i)) {
                others.push_back(i);
            }
        }
        return in_s ? Nogood{std::move(sorted), std::move(others)} : Nogood{std::move(others), std::move(sorted)};
    }

    bool solve_group_uncached(const std::vector<uint32_t> &group, uint64_t capacity, uint64_t base,
                              const Refuted *refuted) {
        const Item &front = items_[group.front()];
        if (std::all_of(group.begin(), group.end(),
                        [&](uint32_t i) { return items_[i].begin == front.begin && items_[i].end == front.end; })) {
            // One lifetime: a stack.
            uint64_t top = base;
            for (uint32_t i : group) {
                offsets_[i] = align_up(top, items_[i].alignment);
                top = offsets_[i] + items_[i].size;
            }
            return top <= base + capacity;
        }
        if (try_cuts(group, capacity, base, refuted)) return true;
        return !out_of_budget() && search_group(group, capacity, base);
    }

    // One height's cuts of a group, over the rounds of try_cuts.
    struct Height {
        uint64_t h;
        std::vector<Nogood> nogoods;
        bool done;
    };

    // What try_cuts shares between heights: the group (sorted), its cut
    // finder, the heights refuted so far and the cuts tried.
    struct CutTrial {
        const std::vector<uint32_t> &sorted;
        CutFinder &finder;
        Refuted &refuted;
        uint64_t capacity, base;
        size_t tried = 0;
        std::vector<uint32_t> below, above;
    };

    enum class HeightOutcome { Solved,
                               Done,
                               CutShort,
                               Stop };

    // Cuts of the group: rounds over its heights from the lowest, each with
    // a larger work limit (see kFirstCutWorkPerBuffer). Each cut whose parts
    // fail adds a nogood for its height, so that the next cut there differs
    // where that one failed.
    bool try_cuts(const std::vector<uint32_t> &group, uint64_t capacity, uint64_t base, const Refuted *inherited) {
        Refuted refuted;
        const std::vector<uint64_t> heights = cut_heights_of(group, capacity, inherited, refuted);
        if (heights.empty()) return false;
        std::vector<uint32_t> sorted(group);
        std::sort(sorted.begin(), sorted.end());
        CutFinder finder(items_, sorted, capacity);
        CutTrial trial{sorted, finder, refuted, capacity, base, 0, {}, {}};
        std::vector<Height> open;
        for (uint64_t h : heights)
            open.push_back({h, {}, false});
        for (uint64_t limit = kFirstCutWorkPerBuffer * group.size();; limit *= 4) {
            bool cut_short = false;
            for (Height &height : open) {
                const HeightOutcome outcome = cuts_at(height, limit, trial);
                if (outcome == HeightOutcome::Solved) return true;
                if (outcome == HeightOutcome::Stop) return false;
                cut_short |= outcome == HeightOutcome::CutShort;
            }
            if (!cut_short || limit >= kCutWorkPerBuffer * group.size()) break;
        }
        return false;
    }

    // The group's cut heights, less those `inherited` refuted for the same
    // sections; sets `refuted` to the group's sections and those heights.
    std::vector<uint64_t> cut_heights_of(const std::vector<uint32_t> &group, uint64_t capacity,
                                         const Refuted *inherited, Refuted &refuted) {
        uint64_t raw = 0;  // the cut search's own work units
        std::vector<uint64_t> heights = cut_heights(items_, group, capacity, raw);
        work_ += kCutWorkScale * raw;
        std::tie(refuted.first, refuted.last) = span_of(group);
        if (inherited != nullptr && inherited->first == refuted.first && inherited->last == refuted.last) {
            refuted.heights = inherited->heights;
            heights.erase(std::remove_if(heights.begin(), heights.end(),
                                         [&](uint64_t h) {
                                             return std::binary_search(refuted.heights.begin(), refuted.heights.end(), h);
                                         }),
                          heights.end());
        }
        return heights;
    }

    // The cuts at one height within the work limit, each tried by solving
    // its two parts, until one leads to a plan (Solved), the height has no
    // more (Done), the limit cuts the search short (CutShort), or the part's
    // cuts or the budget run out (Stop).
    HeightOutcome cuts_at(Height &height, uint64_t limit, CutTrial &trial) {
        const uint64_t h = height.h;
        std::vector<Nogood> &nogoods = height.nogoods;
        while (!height.done) {
            if (trial.tried >= kCutsPerPart || out_of_budget()) return HeightOutcome::Stop;
            CutFinder::Budget budget;
            budget.max_work = std::min(limit, (max_work_ - work_) / kCutWorkScale + 1);
            budget.max_nodes = max_nodes_ - nodes_;
            const CutFinder::Outcome outcome = trial.finder.find(h, nogoods, budget, trial.below);
            work_ += kCutWorkScale * budget.work;
            nodes_ += budget.nodes;
            if (outcome == CutFinder::Outcome::OutOfWork) return HeightOutcome::CutShort;
            if (outcome == CutFinder::Outcome::None) {
                std::vector<uint64_t> &refuted = trial.refuted.heights;
                if (nogoods.empty()) refuted.insert(std::upper_bound(refuted.begin(), refuted.end(), h), h);
                height.done = true;
                return HeightOutcome::Done;
            }
            trial.tried++;
            trial.above.clear();
            std::set_difference(trial.sorted.begin(), trial.sorted.end(), trial.below.begin(), trial.below.end(),
                                std::back_inserter(trial.above));
            if (!solve(trial.below, h, trial.base, &trial.refuted)) {
                nogoods.push_back(nogood_of(failed_group_, true, trial.sorted));
            } else if (!solve(trial.above, trial.capacity - h, trial.base + h, &trial.refuted)) {
                nogoods.push_back(nogood_of(failed_group_, false, trial.sorted));
            } else {
                return HeightOutcome::Solved;
            }
            height.done = nogoods.size() >= kCutsPerHeight;
        }
        return HeightOutcome::Done;
    }

    // The search on the group alone, with capacity `capacity`.
    bool search_group(const std::vector<uint32_t> &group, uint64_t capacity, uint64_t base) {
        // The group's items, with times ranked among its own.
        Prepared sub;
        std::vector<uint32_t> times;
        for (uint32_t i : group) {
            times.push_back(items_[i].begin);
            times.push_back(items_[i].end);
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        auto rank = [&](uint32_t t) { return uint32_t(std::lower_bound(times.begin(), times.end(), t) - times.begin()); };
        sub.points = uint32_t(times.size());
        for (uint32_t i : group) {
            Item item = items_[i];
            item.begin = rank(item.begin);
            item.end = rank(item.end);
            sub.items.push_back(item);
        }
        const std::vector<uint64_t> pressure = peak_pressure(sub);
        std::vector<SearchOrder> orders;
        for (bool fitting_first : {false, true}) {
            for (Order order : {Order::PressureDesc, Order::SizeDesc, Order::AreaDesc, Order::LengthDesc}) {
                orders.push_back({make_order(sub, order, pressure), fitting_first});
            }
        }
        const uint64_t m = group.size();
        const uint64_t first = std::max<uint64_t>(1024, m * m);
        const uint64_t most = std::max(4 * first, kPartSearchWorkPerBufferSquared * m * m);
        for (uint64_t limit = first; limit <= most; limit *= 2) {
            for (const SearchOrder &order : orders) {
                if (out_of_budget()) return false;
                SearchResult r =
                    search(sub, order, capacity, std::min(limit, max_work_ - work_), max_nodes_ - nodes_, deadline_);
                work_ += r.work + r.check_work;
                nodes_ += r.nodes;
                if (r.status == SearchStatus::Infeasible) return false;
                if (r.status == SearchStatus::Found) {
                    for (size_t k = 0; k < group.size(); k++)
                        offsets_[group[k]] = base + r.offsets[k];
                    return true;
                }
            }
        }
        return false;
    }

    const std::vector<Item> &items_;
    const uint64_t max_work_, max_nodes_;
    const Deadline &deadline_;
    std::vector<uint64_t> offsets_;
    uint64_t work_ = 0, nodes_ = 0;
    std::set<std::vector<uint32_t>> failed_;  // groups (sorted, then the capacity's halves) that failed
    std::vector<uint32_t> failed_group_;      // the last group that failed
};

}  // namespace

bool fills_exactly(const Prepared &prepared, uint64_t capacity) {
    const uint32_t sections = prepared.points > 0 ? prepared.points - 1 : 0;
    std::vector<uint64_t> delta(size_t(sections) + 1, 0);
    for (const Item &item : prepared.items) {
        delta[item.begin] += item.size;
        delta[item.end] -= item.size;
    }
    uint64_t live = 0;
    for (uint32_t s = 0; s < sections; s++) {
        live += delta[s];
        if (live != 0 && live != capacity) return false;
    }
    return true;
}

uint64_t cut_work_per_buffer(const Prepared &prepared, uint64_t capacity) {
    if (fills_exactly(prepared, capacity)) return 800'000;
    uint64_t unit = capacity;
    for (const Item &item : prepared.items)
        unit = std::gcd(unit, item.size);
    return unit > 0 && capacity / unit <= (uint64_t(1) << 16) ? 200'000 : 0;
}

DecomposeResult solve_by_cuts(const Prepared &prepared, uint64_t capacity, uint64_t max_work, uint64_t max_nodes,
                              const Deadline &deadline) {
    return Decomposer(prepared, max_work, max_nodes, deadline).run(capacity);
}

}  // namespace harena::detail
