// Offset planning: give every buffer of a Problem an offset in one arena so
// that buffers alive at the same time never share a byte, keeping the arena
// close to the lower bound. A pure, deterministic function on plain data.
//
// Greedy passes first, each placing every buffer once: lowest first (always
// the buffer that can go lowest, as MiniMalloc's search builds plans, except
// that buffers whose busiest time leaves room wait by a fraction of that
// room) and first fit (TFLite's greedy by size: each buffer in turn at the
// lowest offset that holds it, found through an index over time), each over
// a few orders; the smallest arena wins. Lowest first runs within a work
// budget per buffer and gives up past it, or as soon as it falls behind that
// budget's pace; first fit then gives the plan, and after a pass that fell
// behind it runs at once, as the bar for the lowest-first passes left.
// Then, while the arena is above the lower bound, two bounded improvements,
// each starting from the greedy plan: for small problems an exact search
// (after MiniMalloc), and, at every size
// and density, squeaky-wheel passes that bring the buffers causing a peak
// forward, re-placing only the buffers around each peak. The plan is the
// best any phase found, so a larger improvement budget never gives a larger
// arena.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "solver/problem.h"

namespace harena {

// Orders for the greedy passes: the order in which first fit places buffers,
// and how lowest first breaks ties. Ties within an order go to the lower
// buffer index, so every order is deterministic.
enum class Order {
    SizeDesc,       // largest first (TFLite greedy-by-size)
    AreaDesc,       // largest size x lifetime first
    LengthDesc,     // longest lifetime first
    PressureDesc,   // first those alive at the busiest times (highest peak of live bytes over their lifetime)
    BeginAsc,       // in order of first use, like an allocator running the program
    SizeClassDesc,  // largest power-of-two size class first, in order of first use within a class
};

// The defaults, and the measurements they were chosen on, are in
// docs/results/solver.md ("What the default options rest on").
struct SolverOptions {
    // Orders of the lowest-first passes (the order breaks ties between buffers
    // that can go equally low), one pass each with the slack bias (see
    // slack_weight), run first...
    std::vector<Order> lowest_first_orders = {Order::BeginAsc, Order::SizeDesc};

    // ...then one pass each without it. The greedy passes stop once one
    // reaches good_enough_ratio, and a pass gives up once its arena reaches
    // the best so far, so passes after a good one cost little.
    std::vector<Order> lowest_first_plain_orders = {Order::AreaDesc, Order::BeginAsc, Order::PressureDesc};

    // Lowest first checks a buffer's lowest offset again (or a bundle's, see
    // detail/greedy/lowest_first.h) when it rose since it was queued. A
    // lowest-first pass gives up, and its plan is dropped, after this many
    // checks per buffer of the problem, or once it falls behind that pace
    // (LowestFirstLimits::pace), after which first fit runs before any
    // further lowest-first pass...
    uint64_t lowest_first_work_per_buffer = 128;

    // ...and all of them together after this many checks per buffer.
    // Counts, not times, so that the greedy plan, where improvement starts,
    // is the same on any machine. 0 runs no lowest first.
    uint64_t lowest_first_total_work_per_buffer = 256;

    // Orders of the first-fit passes, one pass each, after those (or after
    // the first lowest-first pass that falls behind its pace). With no
    // plan from those (both lists empty, or every lowest-first pass gave
    // up), one first-fit pass in SizeClassDesc order. A greedy pass gives
    // up as soon as its arena reaches the best so far, so one that cannot
    // win costs little.
    std::vector<Order> first_fit_orders = {Order::SizeClassDesc};

    // Lowest first lets buffers whose busiest time leaves room wait: each is
    // ranked by its lowest offset plus this fraction of that room (the lower
    // bound minus the live bytes then), so the buffers of the busy times
    // settle first. 0 gives plain lowest first. The squeaky wheel starts
    // from the same ranks.
    double slack_weight = 1.0 / 16;

    // Squeaky-wheel passes after the greedy ones, over the windows of the
    // plan that are too high (each pass a lowest-first pass over one window),
    // at most this many per window and depth below the lower bound; 0 turns
    // them off...
    uint64_t improve_passes = 16;

    // ...and this many buffer placements per buffer of the problem over all
    // of them (4: four whole passes' worth; a pass that can no longer beat
    // its window's best gives up, and counts only what it placed).
    uint64_t improve_placements_per_buffer = 4;

    // The exact search runs on problems with at most this many buffers of
    // nonzero size (each of its steps costs time linear in that number)...
    size_t search_max_buffers = 500;

    // ...doing at most this much work per buffer (counted in elementary
    // operations; its pruning checks count theirs apart and may do up to
    // twice as much, see kCheckWorkPerWork in detail/exact/search.h), in
    // rounds over a portfolio of search orders (detail/exact/search_rounds.h),
    // each looking for a plan halfway between the best found and the lowest
    // arena not ruled out, then at that arena. It stops as soon as it
    // reaches good_enough_ratio, but where that is out of reach it can
    // rarely prove so and spends all of this. 0 turns the search off.
    uint64_t search_work_per_buffer = 480000;

    // ...and at most this many search nodes (placements tried, and choices of
    // the search for cuts of perfect packings) in all, 0 for no limit. A node
    // costs time that varies with the problem; a node limit gives the same
    // plan on any machine whatever the other budgets, for reproducible runs of
    // a long search.
    uint64_t search_node_limit = 0;

    // Improvement stops once the arena is at most the lower bound times this;
    // 1.0 insists on the bound. The default, 1.0001, counts an arena within
    // a ten-thousandth of the bound as reached, so that the last bytes above
    // it do not take the whole search budget.
    double good_enough_ratio = 1.0001;

    // Capacity mode (MiniMalloc's): with a capacity in bytes, any plan whose
    // arena is at most this will do. Improvement stops once a plan fits
    // (good_enough_ratio is not used), and the exact search looks for a plan
    // at the capacity rather than at the lower bound (which may be out of
    // reach on a hard instance). solve() still returns its best plan when
    // none fits within the budget: the caller compares Plan::arena_bytes
    // with the capacity. 0 minimises the arena.
    uint64_t capacity = 0;

    // Wall-clock cap on the improvement in milliseconds, 0 (the default) for
    // none. When the exact search runs, it gets three quarters of it and the
    // squeaky wheel (after it, unless it reached the lower bound) a quarter,
    // so that a larger cap gives each more time. Only this cap depends on
    // the clock: with 0, every budget above is a count, and the plan is a
    // function of the problem and the options alone (the same bytes on any
    // machine, under any load). A cap makes the plan depend on the machine;
    // use it together with budgets of UINT64_MAX to spend a given time.
    double time_budget_ms = 0;
};

struct Plan {
    std::vector<uint64_t> offsets;  // one per buffer, same order as Problem::buffers
    uint64_t arena_bytes = 0;       // max(offset + size), 0 for an empty problem
    uint64_t lower_bound = 0;       // harena::lower_bound of the problem
    double solve_seconds = 0;       // wall time of solve()
    std::string method;             // which order/improvement produced the offsets

    // arena_bytes / lower_bound; 1.0 when both are 0.
    double ratio() const;
};

// Calls check_problem (throws InputError). Deterministic unless
// SolverOptions::time_budget_ms is set.
Plan solve(const Problem &, const SolverOptions & = {});

// The options of capacity mode as harena-plan --capacity runs it by default:
// the defaults with `capacity` and search_work_per_buffer = 10,000,000 (about
// 20 times the default, for a search that looks for a fit). A count, so the
// answer does not depend on the machine.
SolverOptions capacity_options(uint64_t capacity);

// A short name for an order, as used in Plan::method ("size-desc").
const char *order_name(Order);

}  // namespace harena
