#include "arena_pass.h"
#include "rewrite/size_limit.h"

#include "rewrite/argument_frame.h"
#include "size/buffer_census.h"
#include "report/capturability.h"
#include "rewrite/open_frame.h"
#include "report/pass_report.h"
#include "report/plan_report.h"
#include "size/preamble.h"
#include "size/representative.h"
#include "rewrite/rewrite_allocations.h"
#include "rewrite/argument_query.h"
#include "rewrite/route_argument_buffers.h"
#include "rewrite/route_key_host_buffers.h"
#include "rewrite/run_layout.h"
#include "solver/solver.h"
#include "solver/validator.h"

#include <algorithm>
#include <chrono>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// With the arena a buffer argument, the pipeline calls nothing of the
// runtime: buffers whose planned form does (a host buffer's part that
// Halide frees while the device part stays a slice, a GPU pipeline's
// host-only buffers, which live in the runtime's host companion) are left
// to Halide's allocator.
void leave_what_needs_the_runtime(std::vector<Candidate> &candidates, const PassOptions &options) {
    for (Candidate &c : candidates) {
        if (!c.planned) {
            continue;
        }
        if (c.kind == BufferKind::DeviceAndHost) {
            c.planned = false;
            c.reason = "kept on host and device: with the arena argument '" + options.arena_argument +
                       "' left to Halide's allocator (its host part needs the runtime)";
        } else if (in_host_companion(c.kind, options.device_target)) {
            c.planned = false;
            c.reason = "host-only buffer of a GPU pipeline: the arena argument '" + options.arena_argument +
                       "' holds device buffers, so it is left to halide_malloc";
        }
    }
}

// The pipeline's allocations as the planner sees them, with the preamble
// their sizes are bounded by and the parallel loops they lie in.
struct FoundCandidates {
    Preamble preamble;
    std::vector<Candidate> candidates;
    std::vector<ParallelRegion> regions;
};

FoundCandidates find_candidates(const Stmt &s, const PassOptions &options) {
    FoundCandidates census{read_preamble(s), {}, {}};
    choose_representative_values(census.preamble, options.nominal_extent);
    Census found = take_census(s, census.preamble, CensusOptions{options.device_target, options.unbounded});
    census.candidates = std::move(found.candidates);
    census.regions = std::move(found.regions);
    // The host companion is entered after the arena, which a pipeline enters
    // with its device interface: one with no device work has none.
    if (options.device_target && !find_device_interface(s).defined()) {
        for (Candidate &c : census.candidates) {
            if (c.planned && in_host_companion(c.kind, true)) {
                c.planned = false;
                c.reason = "host-only buffer of a GPU pipeline with no device allocation or copy: left to halide_malloc";
            }
        }
    }
    if (!options.arena_argument.empty()) {
        leave_what_needs_the_runtime(census.candidates, options);
    }
    return census;
}

// The solver's problem: one buffer per candidate given, in that order;
// planned[i] is the candidate of problem.buffers[i].
struct Planning {
    Problem problem;
    std::vector<const Candidate *> planned;
};

// The planned candidates of one frame: the arena's (host_companion false)
// or its host companion's, outside every parallel loop (region 0), or those
// of one parallel loop's iterations.
std::vector<const Candidate *> members(const std::vector<Candidate> &candidates, const PassOptions &options,
                                       bool host_companion, int region) {
    std::vector<const Candidate *> out;
    for (const Candidate &c : candidates) {
        if (c.planned && c.region == region && in_host_companion(c.kind, options.device_target) == host_companion) {
            out.push_back(&c);
        }
    }
    return out;
}

Planning build_problem(const std::vector<const Candidate *> &members, const PassOptions &options) {
    Planning planning;
    std::vector<Buffer> &buffers = planning.problem.buffers;
    for (const Candidate *member : members) {
        const Candidate &c = *member;
        // Allocation names repeat across specializations; distinct ids keep
        // the rows of the plan's CSV and SVG apart.
        std::string id = c.name;
        for (int k = 2; std::any_of(buffers.begin(), buffers.end(), [&](const Buffer &b) { return b.id == id; }); k++) {
            id = c.name + "#" + std::to_string(k);
        }
        // At least one alignment unit, so that every two buffers alive
        // together are ordered in the plan and stay apart in every call,
        // whatever its sizes (solver/compaction.h).
        uint64_t bytes = std::max<uint64_t>(c.planned_bytes, options.alignment);
        buffers.push_back(Buffer{id, c.begin, c.end, bytes, options.alignment});
        planning.planned.push_back(&c);
    }
    return planning;
}

Plan solve_and_validate(const Problem &problem, const std::string &pipeline) {
    Plan plan = solve(problem);
    Validation valid = validate(problem, plan);
    if (!valid.ok) {
        throw InternalError("harena: the solver's plan for " + pipeline + " failed validation: " + valid.error);
    }
    return plan;
}

// One parallel loop's iterations, planned as a frame of their own (their
// lifetimes within an iteration), and the pool of slots that holds them in
// the arena's plan.
struct SlotPlan {
    int region = 0;
    Planning planning;
    Plan plan;
    uint64_t slot_bytes = 0;  // the sub-plan's bytes, aligned
    Candidate pool;
};

std::string slot_prefix(int region) {
    return "harena.slot" + std::to_string(region) + ".";
}

// Each call's slots: the pool's capacity. Halide's thread count does not
// bound the tasks that run at once (workers started before a lower
// halide_set_num_threads keep taking tasks, a waiting thread runs others),
// so a count that followed it would send tasks to the heap that a fixed
// count keeps in the arena, and would make the bytes a call needs depend on
// the thread pool's state.
Expr slot_count(const PassOptions &options) {
    return make_const(Int(32), options.parallel_slots);
}

Expr slot_stride_variable(int region) {
    return Variable::make(UInt(64), slot_prefix(region) + "stride");
}

// The sub-plans of the parallel loops whose iterations allocate planned
// buffers, each validated, with their pools: each pool lives while the
// outermost parallel loop around its loop runs, and holds
// PassOptions::parallel_slots slots of its sub-plan's bytes at most.
std::vector<SlotPlan> plan_slots(const std::vector<Candidate> &candidates, const std::vector<ParallelRegion> &regions,
                                 const PassOptions &options) {
    std::vector<SlotPlan> out;
    for (int r = 1; r < static_cast<int>(regions.size()); r++) {
        std::vector<const Candidate *> inside = members(candidates, options, false, r);
        if (inside.empty()) {
            continue;
        }
        SlotPlan slot;
        slot.region = r;
        slot.planning = build_problem(inside, options);
        slot.plan = solve_and_validate(slot.planning.problem, options.pipeline_name + " (slots of parallel loop " +
                                                                  regions[r].loop_name + ")");
        const uint64_t a = options.alignment;
        slot.slot_bytes = (slot.plan.arena_bytes + a - 1) / a * a;
        const ParallelRegion &outermost = regions[regions[r].outermost];
        Candidate &pool = slot.pool;
        pool.node = regions[r].loop;
        pool.name = regions[r].loop_name + ".slots";
        pool.kind = options.device_target ? BufferKind::Device : BufferKind::Host;
        pool.planned = true;
        pool.begin = outermost.begin;
        pool.end = outermost.end;
        pool.planned_bytes = slot.slot_bytes * static_cast<uint64_t>(options.parallel_slots);
        pool.bounded = std::all_of(inside.begin(), inside.end(), [](const Candidate *c) { return c->bounded; });
        pool.per_call = cast(Int(64), cast(UInt(64), slot_count(options)) * slot_stride_variable(r));
        out.push_back(std::move(slot));
    }
    return out;
}

// The arena's plan, its pools' sub-plans and its host companion's plan
// (empty but for GPU pipelines with host-only buffers), each validated.
struct Plans {
    Planning planning, host_planning;
    Plan plan, host_plan;
    std::vector<SlotPlan> slots;
};

Plans plan_both(const FoundCandidates &census, const PassOptions &options) {
    const std::vector<Candidate> &candidates = census.candidates;
    Plans p;
    p.slots = plan_slots(candidates, census.regions, options);
    std::vector<const Candidate *> in_arena = members(candidates, options, false, 0);
    for (const SlotPlan &slot : p.slots) {
        in_arena.push_back(&slot.pool);
    }
    p.planning = build_problem(in_arena, options);
    p.plan = solve_and_validate(p.planning.problem, options.pipeline_name);
    p.host_planning = build_problem(members(candidates, options, true, 0), options);
    p.host_plan = solve_and_validate(p.host_planning.problem, options.pipeline_name + " (host companion)");
    return p;
}

// The report's view of the slots: each pool, and each buffer's loop and
// offset within its slot. Candidates and report.buffers are in one order.
void report_slots(PassReport &report, const std::vector<Candidate> &candidates,
                  const std::vector<ParallelRegion> &regions, const Plans &plans, const PassOptions &options) {
    for (const SlotPlan &slot : plans.slots) {
        SlotPoolReport pool;
        pool.loop = regions[slot.region].loop_name;
        pool.slots = options.parallel_slots;
        pool.slot_bytes = slot.slot_bytes;
        pool.buffers = static_cast<int>(slot.planning.planned.size());
        pool.bounded = slot.pool.bounded;
        pool.lower_bound = slot.plan.lower_bound;
        const size_t at = plans.planning.planned.size() - plans.slots.size() + report.slot_pools.size();
        pool.offset = plans.plan.offsets[at];
        report.slot_pools.push_back(pool);
        for (size_t k = 0; k < slot.planning.planned.size(); k++) {
            BufferDecision &d = report.buffers[slot.planning.planned[k] - candidates.data()];
            d.slot_loop = pool.loop;
            d.offset = slot.plan.offsets[k];
        }
    }
}

// The host companion's buffers, by name for messages.
std::string host_buffer_names(const std::vector<const Candidate *> &planned) {
    std::string names;
    for (const Candidate *c : planned) {
        names += (names.empty() ? "" : ", ") + c->name;
    }
    return names;
}

// Each of a plan's buffers at its slice of the call's layout, in the frame
// based at host_base (undefined: the arena's frame), their slice indices
// from `first_slice` on.
void place(std::map<const IRNode *, Placement> &placed, const Planning &planning, const RunLayout &layout,
           const Expr &host_base, uint32_t first_slice = 0) {
    for (size_t k = 0; k < planning.planned.size(); k++) {
        placed[planning.planned[k]->node] = Placement{planning.planned[k], layout.offsets[k], layout.sizes[k],
                                                      first_slice + static_cast<uint32_t>(k), host_base};
    }
}

// The pools' sub-plans replayed for the call's sizes, as lets evaluated
// before the frame's own (each pool's bytes follow its slot's) but after
// its band, which a slot repeats: it opens with one and each slice is
// followed by one, as a frame. Each slot buffer is placed at its offset
// within a slot. The slice table goes on after the frame's slices: each
// pool's line for the band that opens its slots, then its buffers'.
SlotPools lay_out_slots(const Plans &plans, const std::vector<ParallelRegion> &regions, const PassOptions &options,
                        RunLayout &layout, std::map<const IRNode *, Placement> &placed, std::string &slice_names) {
    SlotPools slots;
    if (plans.slots.empty()) {
        return slots;
    }
    std::vector<std::pair<std::string, Expr>> lets;
    const Expr a = make_const(UInt(64), options.alignment);
    const size_t first_pool = plans.planning.planned.size() - plans.slots.size();
    const bool banded = !is_const_zero(layout.guard);
    uint32_t next_slice = static_cast<uint32_t>(plans.planning.planned.size());
    for (size_t i = 0; i < plans.slots.size(); i++) {
        const SlotPlan &slot = plans.slots[i];
        const RunLayout sub = run_layout(slot.planning.problem, slot.plan, slot.planning.planned, options.alignment,
                                         slot_prefix(slot.region), banded, layout.guard);
        lets.insert(lets.end(), sub.lets.begin(), sub.lets.end());
        lets.emplace_back(slot_prefix(slot.region) + "stride", simplify((sub.needed + a - 1) / a * a));
        const ParallelRegion &region = regions[slot.region];
        const std::vector<const Candidate *> &buffers = slot.planning.planned;
        const auto on_host = [](const Candidate *c) { return c->kind == BufferKind::Host; };
        const bool host_buffers = std::any_of(buffers.begin(), buffers.end(), on_host);
        slots.device_buffers = slots.device_buffers || !std::all_of(buffers.begin(), buffers.end(), on_host);
        slots.pools.push_back(SlotPool{slot.region, region.loop_name, options.parallel_slots,
                                       slot_stride_variable(slot.region), layout.offsets[first_pool + i],
                                       options.arena_argument.empty() ? SlotKeeper::Runtime : SlotKeeper::Pipeline,
                                       host_buffers, next_slice});
        slice_names += "the first slice of a slot of loop '" + region.loop_name + "'\n";
        place(placed, slot.planning, sub, Expr(), next_slice + 1);
        for (const Candidate *c : slot.planning.planned) {
            slice_names += c->name + "\n";
        }
        next_slice += 1 + static_cast<uint32_t>(slot.planning.planned.size());
        slots.by_loop[region.loop] = i;
        slots.by_region[slot.region] = i;
        slots.states_at[regions[region.outermost].loop].push_back(i);
    }
    // The frame's band is its layout's first let (rewrite/run_layout.h).
    layout.lets.insert(layout.lets.begin() + (banded ? 1 : 0), lets.begin(), lets.end());
    return slots;
}

// Each planned buffer becomes a slice at this call's offset (the plan
// replayed for the call's sizes, rewrite/run_layout.h) of a frame the pipeline
// opens just before it uses the first of them: in the arena, or for a GPU
// pipeline's host-only buffers in its host companion.
Stmt rewrite(const Stmt &s, const Plans &plans, const std::vector<ParallelRegion> &regions, const PassReport &report,
             const PassOptions &options) {
    const Planning &planning = plans.planning, &host_planning = plans.host_planning;
    if (planning.planned.empty() && host_planning.planned.empty()) {
        // Calls of GPU pipelines with the arena as user_context may be
        // captured: even with nothing planned, the pipeline says whether a
        // graph replays it.
        const bool user_context_arena = options.device_target && options.arena_argument.empty();
        return user_context_arena ? declare_traits(s, report.capturable ? HARENA_PIPELINE_CAPTURABLE : 0) : s;
    }
    // Guard bands are the runtime's (harena_pipeline_guard_bytes): none in an arena argument.
    RunLayout layout = run_layout(planning.problem, plans.plan, planning.planned, options.alignment, "harena.",
                                  options.arena_argument.empty());
    RunLayout host_layout =
        run_layout(host_planning.problem, plans.host_plan, host_planning.planned, options.alignment, "harena.host.", false);
    std::map<const IRNode *, Placement> placed;
    place(placed, planning, layout, Expr());
    place(placed, host_planning, host_layout, host_frame_base());
    FrameEntry entry;
    entry.slice_names = slice_names(options.pipeline_name, planning.planned);
    SlotPools slots = lay_out_slots(plans, regions, options, layout, placed, entry.slice_names);
    entry.pipeline = options.pipeline_name;
    entry.device_interface = planned_device_interface(s, options.device_target);
    entry.worst_case_bytes = report.bounded ? report.arena_bytes : 0;
    entry.traits = HARENA_PIPELINE_GUARDS | (report.capturable ? HARENA_PIPELINE_CAPTURABLE : 0);
    entry.alignment = options.alignment;
    entry.device_target = options.device_target;
    if (!host_planning.planned.empty()) {
        entry.host_layout = &host_layout;
        entry.host_buffers = host_buffer_names(host_planning.planned);
        entry.host_worst_case_bytes = report.host_bounded ? report.host_arena_bytes : 0;
    }
    if (!options.arena_argument.empty()) {
        // No frame, no slice events, no routing: the caller's buffer is the
        // arena for this call, and nothing else of the runtime is there.
        ArgumentFrame frame{options.pipeline_name, options.arena_argument, entry.device_interface,
                            options.device_target};
        Stmt result = answer_arena_query(s, placed, layout, frame);
        result = open_argument_frame(result, placed, layout, frame);
        result = rewrite_allocations(result, placed, frame_base(), entry.device_interface, Checks::none(),
                                     options.maximum_buffer_size, slots);
        return hoist_size_limit_checks(result);
    }
    Stmt result = open_frame(s, placed, layout, entry);
    Checks checks{checks_on(), slice_table(), options.device_target};
    result = rewrite_allocations(result, placed, frame_base(), entry.device_interface, checks,
                                 options.maximum_buffer_size, slots);
    result = hoist_size_limit_checks(result);
    if (report.capturable) {
        result = route_key_host_buffers(result, key_host_buffers(s));
    }
    return options.device_target ? route_argument_buffers(result) : result;
}

}  // namespace

Stmt plan_arena(const Stmt &s, const PassOptions &options, PassReport *report_out) {
    const auto start = std::chrono::steady_clock::now();
    const FoundCandidates census = find_candidates(s, options);
    const Plans plans = plan_both(census, options);
    PassReport report = make_report(s, census.candidates, census.preamble, plans.plan, plans.host_plan, options);
    report_slots(report, census.candidates, census.regions, plans, options);
    Stmt result = rewrite(s, plans, census.regions, report, options);
    trace_plan(report, options, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!options.report_dir.empty()) {
        write_plan_report(report, plans.planning.problem, plans.plan, options.report_dir);
    }
    if (report_out) {
        *report_out = std::move(report);
    }
    return result;
}

Stmt ArenaPlannerPass::mutate(const Stmt &s) {
    return plan_arena(s, options_);
}

}  // namespace harena
