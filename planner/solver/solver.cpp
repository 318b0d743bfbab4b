#include "solver/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "solver/best_fit.h"
#include "solver/deadline.h"
#include "solver/lowest_first.h"
#include "solver/orders.h"
#include "solver/prepared.h"
#include "solver/search.h"
#include "solver/squeaky_wheel.h"

namespace harena {

const char *order_name(Order order) {
  switch (order) {
    case Order::SizeDesc: return "size-desc";
    case Order::AreaDesc: return "area-desc";
    case Order::LengthDesc: return "length-desc";
    case Order::PressureDesc: return "pressure-desc";
    case Order::BeginAsc: return "begin-asc";
  }
  return "?";
}

double Plan::ratio() const {
  if (lower_bound == 0) return arena_bytes == 0 ? 1.0 : HUGE_VAL;
  return double(arena_bytes) / double(lower_bound);
}

namespace {

using detail::Incumbent;
using detail::Prepared;

uint64_t saturating_product(uint64_t a, uint64_t b) { return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

// The arena at which improving stops: the lower bound times the ratio,
// rounded down, and never below the bound.
uint64_t good_enough(uint64_t lower_bound, double ratio) {
  if (!(ratio > 1)) return lower_bound;
  double slack = double(lower_bound) * (ratio - 1);
  return slack >= double(UINT64_MAX - lower_bound) ? UINT64_MAX : lower_bound + uint64_t(slack);
}

uint64_t arena_of(const Prepared &prepared, const std::vector<uint64_t> &offsets) {
  uint64_t arena = 0;
  for (size_t i = 0; i < prepared.items.size(); i++) arena = std::max(arena, offsets[i] + prepared.items[i].size);
  return arena;
}

// The same problem with time running backwards. A plan for one is a plan
// for the other, but the search, which fills each level left to right,
// takes a different path through it: hard problems are often easy the other
// way round.
Prepared reversed_in_time(const Prepared &prepared) {
  Prepared reversed = prepared;
  for (detail::Item &item : reversed.items) {
    uint32_t begin = item.begin;
    item.begin = prepared.points - 1 - item.end;
    item.end = prepared.points - 1 - begin;
  }
  return reversed;
}

// Runs the search with each preorder, forwards and backwards in time, in
// turn, doubling the work limit each round, so that an easy variant succeeds
// quickly and a hard problem still gets long runs (MiniMalloc's round robin).
detail::SearchStatus search_with_restarts(const Prepared &prepared,
                                          const std::vector<std::vector<uint32_t>> &preorders, uint64_t capacity,
                                          uint64_t &work, const detail::Deadline &deadline,
                                          std::vector<uint64_t> &offsets) {
  const Prepared reversed = reversed_in_time(prepared);
  // About one pass down the search tree to start with.
  uint64_t first = uint64_t(prepared.items.size()) * prepared.items.size();
  for (uint64_t limit = std::max<uint64_t>(1024, first);; limit *= 2) {
    for (const std::vector<uint32_t> &preorder : preorders) {
      for (const Prepared *variant : {&prepared, &reversed}) {
        if (work == 0 || deadline.expired()) return detail::SearchStatus::GaveUp;
        detail::SearchResult r = detail::search(*variant, preorder, capacity, std::min(limit, work), deadline);
        work -= std::min(work, r.work);
        if (r.status == detail::SearchStatus::Found) offsets = std::move(r.offsets);
        if (r.status != detail::SearchStatus::GaveUp) return r.status;
      }
    }
  }
}

// Searches for a plan with an arena of at most `goal`; if there is provably
// none, for one between it and the incumbent, by bisection. Returns whether
// `best` improved.
bool improve_by_search(const Prepared &prepared, const std::vector<uint64_t> &pressure, uint64_t goal,
                       uint64_t work, const detail::Deadline &deadline, Incumbent &best) {
  std::vector<std::vector<uint32_t>> preorders;
  for (Order order : {Order::PressureDesc, Order::SizeDesc, Order::AreaDesc, Order::LengthDesc}) {
    preorders.push_back(detail::make_order(prepared, order, pressure));
  }
  bool improved = false;
  uint64_t low = goal;  // below this is not worth looking, or proven empty
  while (best.arena > low) {
    uint64_t capacity = low == goal ? low : low + (best.arena - low) / 2;
    std::vector<uint64_t> offsets;
    detail::SearchStatus status = search_with_restarts(prepared, preorders, capacity, work, deadline, offsets);
    if (status == detail::SearchStatus::Found) {
      improved = true;
      best.offsets = std::move(offsets);
      best.arena = arena_of(prepared, best.offsets);
    } else if (status == detail::SearchStatus::Infeasible) {
      low = capacity + 1;
    } else {
      break;
    }
  }
  return improved;
}

// The greedy passes: lowest first, then best fit, for each order, stopping
// early at `goal`. `best` gets the smallest arena and `method` how it was
// made. Lowest first goes first because it usually wins: a later pass gives
// up as soon as it reaches the best arena so far, which it can then no
// longer beat.
struct Greedy {
  Incumbent best;
  std::string method;
};

Greedy greedy_passes(const Prepared &prepared, const std::vector<uint64_t> &pressure,
                     const std::vector<int64_t> &bias, const SolverOptions &options, uint64_t goal) {
  Greedy greedy;
  auto consider = [&](Incumbent &&candidate, const char *kind, Order order) {
    if (candidate.arena < greedy.best.arena) {
      greedy.best = std::move(candidate);
      greedy.method = std::string(kind) + " " + order_name(order);
    }
  };
  for (Order order : options.lowest_first_orders) {
    if (greedy.best.arena <= goal) break;
    Incumbent candidate;
    candidate.order = detail::make_order(prepared, order, pressure);
    candidate.arena = detail::lowest_first(prepared, candidate.order, candidate.offsets, bias, greedy.best.arena);
    consider(std::move(candidate), "lowest-first", order);
  }
  std::vector<Order> best_fit_orders = options.best_fit_orders;
  if (best_fit_orders.empty() && options.lowest_first_orders.empty()) best_fit_orders = {Order::SizeDesc};
  // Built only when a best-fit pass runs: its index is a list per time
  // section, not worth making when lowest first already reached the goal.
  std::optional<detail::BestFit> best_fit;
  for (Order order : best_fit_orders) {
    if (greedy.best.arena <= goal) break;
    if (!best_fit) best_fit.emplace(prepared);
    Incumbent candidate;
    candidate.order = detail::make_order(prepared, order, pressure);
    candidate.arena = best_fit->run(candidate.order, candidate.offsets, greedy.best.arena);
    consider(std::move(candidate), "best-fit", order);
  }
  return greedy;
}

}  // namespace

Plan solve(const Problem &problem, const SolverOptions &options) {
  auto start = std::chrono::steady_clock::now();
  check_problem(problem);
  Prepared prepared = detail::prepare(problem);

  Plan plan;
  plan.offsets.assign(problem.buffers.size(), 0);
  plan.lower_bound = detail::lower_bound(prepared);
  plan.method = "nothing to place";
  if (!prepared.items.empty()) {
    const uint64_t goal = good_enough(plan.lower_bound, options.good_enough_ratio);
    const std::vector<uint64_t> pressure = detail::peak_pressure(prepared);
    const std::vector<int64_t> bias = detail::slack_bias(pressure, plan.lower_bound, options.slack_weight);
    Greedy greedy = greedy_passes(prepared, pressure, bias, options, goal);
    Incumbent &best = greedy.best;
    plan.method = greedy.method;

    detail::Deadline deadline(options.time_budget_ms);
    if (best.arena > goal && options.improve_passes > 0) {
      uint64_t before = best.arena;
      const uint64_t placements = saturating_product(options.improve_placements_per_buffer, prepared.items.size());
      detail::squeaky_wheel(prepared, best, bias, plan.lower_bound, goal, {options.improve_passes, placements},
                            deadline, best);
      if (best.arena < before) plan.method += " + squeaky wheel";
    }
    if (best.arena > goal && prepared.items.size() <= options.search_max_buffers &&
        options.search_work_per_buffer > 0) {
      uint64_t work = saturating_product(options.search_work_per_buffer, prepared.items.size());
      if (improve_by_search(prepared, pressure, goal, work, deadline, best)) plan.method = "exact search";
    }

    for (size_t i = 0; i < prepared.items.size(); i++) plan.offsets[prepared.items[i].index] = best.offsets[i];
    plan.arena_bytes = best.arena;
  }
  plan.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

}  // namespace harena
