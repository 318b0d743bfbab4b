#include "solver/solver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "solver/detail/common/deadline.h"
#include "solver/detail/greedy/first_fit.h"
#include "solver/detail/greedy/lowest_first.h"
#include "solver/detail/common/orders.h"
#include "solver/detail/common/prepared.h"
#include "solver/detail/exact/search_rounds.h"
#include "solver/detail/greedy/squeaky_wheel.h"

namespace harena {

const char *order_name(Order order) {
    switch (order) {
    case Order::SizeDesc:
        return "size-desc";
    case Order::AreaDesc:
        return "area-desc";
    case Order::LengthDesc:
        return "length-desc";
    case Order::PressureDesc:
        return "pressure-desc";
    case Order::BeginAsc:
        return "begin-asc";
    case Order::SizeClassDesc:
        return "size-class-desc";
    }
    return "?";
}

SolverOptions capacity_options(uint64_t capacity) {
    SolverOptions options;
    options.capacity = capacity;
    options.search_work_per_buffer = 10'000'000;
    return options;
}

double Plan::ratio() const {
    if (lower_bound == 0) return arena_bytes == 0 ? 1.0 : HUGE_VAL;
    return double(arena_bytes) / double(lower_bound);
}

namespace {

using detail::Incumbent;
using detail::Prepared;

uint64_t saturating_product(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

// The arena at which improving stops: the lower bound times the ratio,
// rounded down, and never below the bound.
uint64_t good_enough(uint64_t lower_bound, double ratio) {
    if (!(ratio > 1)) return lower_bound;
    double slack = double(lower_bound) * (ratio - 1);
    return slack >= double(UINT64_MAX - lower_bound) ? UINT64_MAX : lower_bound + uint64_t(slack);
}

// The greedy passes: lowest first, with the slack bias and then without,
// then first fit, for each order, stopping early at `goal`. `best` gets the
// smallest arena, `method` how it was made and `bias` the bias its pass
// used (the slack bias for first fit), which the squeaky wheel starts from.
// Lowest first goes first because it usually wins where it runs to the
// end: a later pass gives up as soon as it reaches the best arena so far,
// which it can then no longer beat. A lowest-first pass gives up once out
// of its work budget, or as soon as it falls behind that budget's pace
// (LowestFirstLimits::pace); first fit always runs to the end when nothing
// better is known, so there is always a plan.
//
// A pass that falls behind its pace shows that lowest first fights the
// skyline on this problem (many buffers alive at once, where each check
// also costs the most): on 1,000,000 buffers, a lowest-first pass takes 87
// checks of about 0.23 us per buffer, first fit about 12 us per buffer.
// First fit then runs at once rather than last, so that its plan is the bar
// every later lowest-first pass must beat, and the answer where it reaches
// the goal.
struct Greedy {
    Incumbent best;
    std::string method;
    std::vector<int64_t> bias;
};

class GreedyPasses {
public:
    GreedyPasses(const Prepared &prepared, const std::vector<uint64_t> &pressure, const std::vector<int64_t> &slack,
                 const SolverOptions &options, uint64_t goal)
        : prepared_(prepared), pressure_(pressure), slack_(slack), plain_(prepared.items.size(), 0),
          options_(options), goal_(goal), n_(prepared.items.size()),
          per_pass_(saturating_product(options.lowest_first_work_per_buffer, n_)),
          left_(saturating_product(options.lowest_first_total_work_per_buffer, n_)), floor_(prepared.points, 0) {
    }

    Greedy run() {
        for (Order order : options_.lowest_first_orders)
            lowest_first(order, slack_);
        for (Order order : options_.lowest_first_plain_orders)
            lowest_first(order, plain_);
        if (!first_fit_ran_) first_fit();
        return std::move(greedy_);
    }

private:
    void consider(Incumbent &&candidate, const char *kind, Order order, const std::vector<int64_t> &bias) {
        if (candidate.arena < greedy_.best.arena) {
            greedy_.best = std::move(candidate);
            greedy_.method = std::string(kind) + " " + order_name(order) + (&bias == &plain_ ? " unbiased" : "");
            greedy_.bias = bias;
        }
    }

    void lowest_first(Order order, const std::vector<int64_t> &bias) {
        if (greedy_.best.arena <= goal_ || per_pass_ == 0 || left_ == 0) return;
        Incumbent candidate;
        candidate.order = detail::make_order(prepared_, order, pressure_);
        candidate.offsets.resize(n_);
        detail::LowestFirst pass(prepared_, candidate.order, 0, floor_);
        candidate.arena = pass.run(candidate.offsets, bias, greedy_.best.arena, {std::min(per_pass_, left_), per_pass_});
        left_ -= std::min(left_, pass.work());
        consider(std::move(candidate), "lowest-first", order, bias);
        if (pass.fell_behind() && !first_fit_ran_) first_fit();
    }

    void first_fit() {
        first_fit_ran_ = true;
        std::vector<Order> orders = options_.first_fit_orders;
        if (orders.empty() && greedy_.best.arena == UINT64_MAX) orders = {Order::SizeClassDesc};
        // Built only when a first-fit pass runs, which lowest first often
        // makes unnecessary.
        std::optional<detail::GapIndex> index;
        for (Order order : orders) {
            if (greedy_.best.arena <= goal_) break;
            if (!index) index.emplace(detail::sections_of(prepared_));
            Incumbent candidate;
            candidate.order = detail::make_order(prepared_, order, pressure_);
            candidate.arena =
                detail::first_fit(prepared_, *index, candidate.order, candidate.offsets, greedy_.best.arena);
            consider(std::move(candidate), "first-fit", order, slack_);
        }
    }

    const Prepared &prepared_;
    const std::vector<uint64_t> &pressure_;
    const std::vector<int64_t> &slack_;
    const std::vector<int64_t> plain_;
    const SolverOptions &options_;
    const uint64_t goal_;
    const uint64_t n_;
    const uint64_t per_pass_;
    uint64_t left_;  // of the work budget of all lowest-first passes together
    const std::vector<uint64_t> floor_;
    bool first_fit_ran_ = false;
    Greedy greedy_;
};

// The arena the passes aim for. In capacity mode it is the capacity: any
// plan within it will do, and the search looks there rather than at the
// bound. Below the bound nothing fits, and one greedy pass is all there is
// to do (a goal below UINT64_MAX, which the first pass always reaches).
uint64_t goal_of(const SolverOptions &options, uint64_t lower_bound) {
    if (options.capacity == 0) return good_enough(lower_bound, options.good_enough_ratio);
    return options.capacity < lower_bound ? UINT64_MAX - 1 : options.capacity;
}

// The exact search from the greedy plan, with three quarters of the time
// budget: true where it improved `searched` (which starts as the greedy
// plan).
bool search_from(const Prepared &prepared, const Greedy &greedy, const std::vector<uint64_t> &pressure,
                 uint64_t lower_bound, uint64_t goal, const SolverOptions &options, Incumbent &searched) {
    const bool capacity_mode = options.capacity > 0;
    detail::Deadline deadline(options.time_budget_ms * 3 / 4);
    searched = greedy.best;
    detail::SearchBudget budget{saturating_product(options.search_work_per_buffer, prepared.items.size()),
                                options.search_node_limit > 0 ? options.search_node_limit : UINT64_MAX};
    return detail::improve_by_search(prepared, pressure, capacity_mode ? goal : lower_bound, goal, capacity_mode, budget,
                                     deadline, searched);
}

// The squeaky wheel from the greedy plan, with the time budget the search
// (where it ran) left; `wheeled` gets its plan.
void wheel_from(const Prepared &prepared, const Greedy &greedy, uint64_t lower_bound, uint64_t goal,
                const SolverOptions &options, bool searched, Incumbent &wheeled) {
    detail::Deadline deadline(searched ? options.time_budget_ms / 4 : options.time_budget_ms);
    wheeled = greedy.best;
    const uint64_t placements = saturating_product(options.improve_placements_per_buffer, prepared.items.size());
    detail::squeaky_wheel(prepared, greedy.best, greedy.bias, lower_bound, goal, {options.improve_passes, placements},
                          deadline, wheeled);
}

// The best plan of the greedy passes and the improvements of it, and in
// `method` how it was made. Both improvements start from the greedy plan,
// each with its own budget, and the plan is the best of all, so more budget
// for either never makes the plan worse. The search goes first: on the
// small problems where it runs it is the one that reaches the bound, after
// which nothing can do better.
Incumbent best_plan(const Prepared &prepared, const SolverOptions &options, uint64_t lower_bound,
                    std::string &method) {
    const uint64_t goal = goal_of(options, lower_bound);
    const std::vector<uint64_t> pressure = detail::peak_pressure(prepared);
    const std::vector<int64_t> bias = detail::slack_bias(pressure, lower_bound, options.slack_weight);
    const Greedy greedy = GreedyPasses(prepared, pressure, bias, options, goal).run();
    Incumbent best = greedy.best;
    method = greedy.method;
    const bool search = greedy.best.arena > goal && prepared.items.size() <= options.search_max_buffers &&
                        options.search_work_per_buffer > 0;
    if (search) {
        Incumbent searched;
        if (search_from(prepared, greedy, pressure, lower_bound, goal, options, searched) &&
            searched.arena < best.arena) {
            best = std::move(searched);
            method = "exact search";
        }
    }
    if (greedy.best.arena > goal && best.arena > lower_bound && options.improve_passes > 0) {
        Incumbent wheeled;
        wheel_from(prepared, greedy, lower_bound, goal, options, search, wheeled);
        if (wheeled.arena < best.arena) {
            best = std::move(wheeled);
            method = greedy.method + " + squeaky wheel";
        }
    }
    return best;
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
        const Incumbent best = best_plan(prepared, options, plan.lower_bound, plan.method);
        for (size_t i = 0; i < prepared.items.size(); i++)
            plan.offsets[prepared.items[i].index] = best.offsets[i];
        plan.arena_bytes = best.arena;
    }
    plan.solve_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return plan;
}

}  // namespace harena
