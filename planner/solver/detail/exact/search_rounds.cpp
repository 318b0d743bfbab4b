#include "solver/detail/exact/search_rounds.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <utility>

#include "solver/detail/exact/decompose.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/exact/search.h"
#include "solver/solver.h"

namespace harena::detail {

namespace {

uint64_t saturating_product(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

uint64_t arena_of(const Prepared &prepared, const std::vector<uint64_t> &offsets) {
    uint64_t arena = 0;
    for (size_t i = 0; i < prepared.items.size(); i++)
        arena = std::max(arena, offsets[i] + prepared.items[i].size);
    return arena;
}

// The same problem with time running backwards. A plan for one is a plan
// for the other, but the search, which fills each level left to right,
// takes a different path through it: hard problems are often easy the other
// way round.
Prepared reversed_in_time(const Prepared &prepared) {
    Prepared reversed = prepared;
    for (Item &item : reversed.items) {
        uint32_t begin = item.begin;
        item.begin = prepared.points - 1 - item.end;
        item.end = prepared.points - 1 - begin;
    }
    return reversed;
}

// The largest g that divides every size and alignment: offsets and tops of
// canonical plans, and so arenas, are multiples of it.
uint64_t granularity(const Prepared &prepared) {
    uint64_t g = 0;
    for (const Item &item : prepared.items)
        g = std::gcd(g, std::gcd(item.size, item.alignment));
    return std::max<uint64_t>(g, 1);
}

// The portfolio: MiniMalloc's canonical form with its three preorders, each
// part drawing its own (on MiniMalloc's challenging suite these alone fit
// all eleven instances within 2^20, E in 2.2e8 units of work with TWA,
// where the other two did not within 3e8 and no fixed preorder within 1e8),
// then the same form with two fixed
// preorders, then buffers left to right with four preorders, each on its
// own and with the buffers that fit their place first.
std::vector<SearchOrder> portfolio(const Prepared &prepared, const std::vector<uint64_t> &pressure) {
    std::vector<SearchOrder> orders;
    for (Preorder key : {Preorder::TWA, Preorder::TAW, Preorder::WAT})
        orders.push_back({preorder_of(prepared, key, pressure), false, true, key});
    for (bool sections_first : {false, true})
        orders.push_back({search_preorder(prepared, pressure, sections_first), false, true});
    for (bool fitting_first : {false, true}) {
        for (Order order : {Order::PressureDesc, Order::SizeDesc, Order::AreaDesc, Order::LengthDesc})
            orders.push_back({make_order(prepared, order, pressure), fitting_first, false});
    }
    return orders;
}

class Rounds {
public:
    Rounds(const Prepared &prepared, const std::vector<uint64_t> &pressure, SearchBudget budget,
           const Deadline &deadline)
        : prepared_(prepared),
          reversed_(reversed_in_time(prepared)),
          orders_(portfolio(prepared, pressure)),
          budget_(budget),
          deadline_(deadline) {
    }

    bool out_of_budget() const {
        return budget_.spent() || deadline_.expired();
    }
    SearchBudget &budget() {
        return budget_;
    }

    // One dive down the search tree (n nodes) of the first order: its work
    // is the first round's limit, so that every order can complete a dive
    // in the first round, whatever a node costs on this problem.
    SearchResult dive(uint64_t capacity) {
        const uint64_t nodes = std::min<uint64_t>(prepared_.items.size(), budget_.nodes);
        SearchResult r = search(prepared_, orders_[0], capacity, budget_.work, nodes, deadline_);
        charge(r);
        dive_work_ = std::max<uint64_t>(1024, r.work);
        return r;
    }
    uint64_t dive_work() const {
        return dive_work_;
    }

    // Runs every order in turn for a plan within `capacity`, each run
    // stopping after `limit` work; Found as soon as one finds a plan,
    // Infeasible as soon as one proves there is none, GaveUp when all gave
    // up.
    SearchStatus round(uint64_t capacity, uint64_t limit, std::vector<uint64_t> &offsets);

private:
    void charge(const SearchResult &r) {
        budget_.work -= std::min(budget_.work, r.work);
        budget_.nodes -= std::min(budget_.nodes, r.nodes);
    }

    const Prepared &prepared_;
    const Prepared reversed_;
    const std::vector<SearchOrder> orders_;
    SearchBudget budget_;
    const Deadline &deadline_;
    uint64_t dive_work_ = 1024;
    std::set<uint64_t> capped_at_;  // capacities the fixed preorders have run at at their cap
};

// Orders with a fixed preorder find a plan in a dive or two or not at all
// (on the challenging suite every plan they found took at most about two
// dives, where the redrawn preorders found some only after thousands of
// nodes): their limit stops at two dives, and once they have run at that at
// a capacity they do not repeat it. Buffers at one offset in preorder take
// the same path either way in time, but for the order in which separate
// parts are solved: those run forwards only.
SearchStatus Rounds::round(uint64_t capacity, uint64_t limit, std::vector<uint64_t> &offsets) {
    const uint64_t fixed_cap = saturating_product(dive_work_, 2);
    const bool fixed_repeats = limit >= fixed_cap && !capped_at_.insert(capacity).second;
    for (const SearchOrder &order : orders_) {
        const bool fixed = order.reorder == Preorder::Fixed;
        if (fixed && fixed_repeats) continue;
        for (const Prepared *variant : {&prepared_, &reversed_}) {
            if (variant == &reversed_ && order.by_preorder) continue;
            if (out_of_budget()) return SearchStatus::GaveUp;
            const uint64_t run_limit = std::min(fixed ? std::min(limit, fixed_cap) : limit, budget_.work);
            SearchResult r = search(*variant, order, capacity, run_limit, budget_.nodes, deadline_);
            charge(r);
            if (r.status == SearchStatus::Found) offsets = std::move(r.offsets);
            if (r.status != SearchStatus::GaveUp) return r.status;
        }
    }
    return SearchStatus::GaveUp;
}

}  // namespace

bool improve_by_search(const Prepared &prepared, const std::vector<uint64_t> &pressure, uint64_t lower_bound,
                       uint64_t goal, bool aim_only, SearchBudget budget, const Deadline &deadline, Incumbent &best) {
    Rounds rounds(prepared, pressure, budget, deadline);
    const uint64_t g = granularity(prepared);
    bool improved = false;
    uint64_t low = lower_bound / g * g;  // below this is proven empty
    auto open = [&] { return best.arena > goal && best.arena > low && !rounds.out_of_budget(); };
    // Capacities are rounded down to what an arena can be (a multiple of
    // g): room that no buffer can use would only weaken the search's
    // pruning, which is sharpest when every byte of a section must be filled.
    auto take = [&](SearchStatus status, uint64_t capacity, std::vector<uint64_t> &offsets) {
        if (status == SearchStatus::Found) {
            improved = true;
            best.offsets = std::move(offsets);
            best.arena = arena_of(prepared, best.offsets);
        } else if (status == SearchStatus::Infeasible) {
            low = std::max(low, capacity + g);
        }
    };
    if (!open()) return false;
    {
        // The dive looks just below the best plan (or at the capacity).
        const uint64_t capacity = aim_only ? low : best.arena - g;
        SearchResult r = rounds.dive(capacity);
        take(r.status, capacity, r.offsets);
    }
    // Packings are first cut into parts (decompose.h), which settles most
    // guillotine packings in a fraction of the search's time. The cuts' work
    // is counted apart from the search's, as the search's checks are
    // (search.h): a problem they fail on still gets the whole search, so that
    // no packing the search alone solves is lost. They may do at most half as
    // much work as the search, and cut_work_per_buffer.
    const uint64_t cut_work = cut_work_per_buffer(prepared, low);
    if (open() && cut_work > 0) {
        SearchBudget &left = rounds.budget();
        const uint64_t cut_budget = std::min(left.work / 4, saturating_product(cut_work, prepared.items.size()));
        DecomposeResult r = solve_by_cuts(prepared, low, cut_budget, left.nodes, deadline);
        left.nodes -= std::min(left.nodes, r.nodes);
        if (r.found) take(SearchStatus::Found, low, r.offsets);
    }
    for (uint64_t limit = rounds.dive_work(); open(); limit = saturating_product(limit, 2)) {
        for (bool halfway : {true, false}) {
            if (!open()) break;
            const uint64_t capacity = halfway ? (low + (best.arena - 1 - low) / 2) / g * g : low;
            if (halfway && (aim_only || capacity <= low)) continue;
            std::vector<uint64_t> offsets;
            const SearchStatus status = rounds.round(capacity, limit, offsets);
            take(status, capacity, offsets);
            if (status == SearchStatus::Infeasible && aim_only) return improved;
        }
    }
    return improved;
}

}  // namespace harena::detail
