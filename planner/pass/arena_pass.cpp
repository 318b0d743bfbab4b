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
// their sizes are bounded by.
struct FoundCandidates {
    Preamble preamble;
    std::vector<Candidate> candidates;
};

FoundCandidates find_candidates(const Stmt &s, const PassOptions &options) {
    FoundCandidates census{read_preamble(s), {}};
    choose_representative_values(census.preamble, options.nominal_extent);
    census.candidates = take_census(s, census.preamble, CensusOptions{options.device_target, options.unbounded});
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

// The solver's problem: one buffer per planned candidate of the arena, or
// of its host companion, in candidate order; planned[i] is the candidate of
// problem.buffers[i].
struct Planning {
    Problem problem;
    std::vector<const Candidate *> planned;
};

Planning build_problem(const std::vector<Candidate> &candidates, const PassOptions &options, bool host_companion) {
    Planning planning;
    std::vector<Buffer> &buffers = planning.problem.buffers;
    for (const Candidate &c : candidates) {
        if (!c.planned || in_host_companion(c.kind, options.device_target) != host_companion) {
            continue;
        }
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

// The arena's plan and its host companion's (empty but for GPU pipelines
// with host-only buffers), each validated.
struct Plans {
    Planning planning, host_planning;
    Plan plan, host_plan;
};

Plans plan_both(const std::vector<Candidate> &candidates, const PassOptions &options) {
    Plans p;
    p.planning = build_problem(candidates, options, false);
    p.plan = solve_and_validate(p.planning.problem, options.pipeline_name);
    p.host_planning = build_problem(candidates, options, true);
    p.host_plan = solve_and_validate(p.host_planning.problem, options.pipeline_name + " (host companion)");
    return p;
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
// based at host_base (undefined: the arena's frame).
void place(std::map<const IRNode *, Placement> &placed, const Planning &planning, const RunLayout &layout,
           const Expr &host_base) {
    for (size_t k = 0; k < planning.planned.size(); k++) {
        placed[planning.planned[k]->node] =
            Placement{planning.planned[k], layout.offsets[k], layout.sizes[k], static_cast<uint32_t>(k), host_base};
    }
}

// Each planned buffer becomes a slice at this call's offset (the plan
// replayed for the call's sizes, rewrite/run_layout.h) of a frame the pipeline
// opens just before it uses the first of them: in the arena, or for a GPU
// pipeline's host-only buffers in its host companion.
Stmt rewrite(const Stmt &s, const Plans &plans, const PassReport &report, const PassOptions &options) {
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
    entry.pipeline = options.pipeline_name;
    entry.device_interface = planned_device_interface(s, options.device_target);
    entry.worst_case_bytes = report.bounded ? report.arena_bytes : 0;
    entry.traits = HARENA_PIPELINE_GUARDS | (report.capturable ? HARENA_PIPELINE_CAPTURABLE : 0);
    entry.alignment = options.alignment;
    entry.device_target = options.device_target;
    entry.slice_names = slice_names(options.pipeline_name, planning.planned);
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
        Stmt result = open_argument_frame(s, placed, layout, frame);
        result = rewrite_allocations(result, placed, frame_base(), entry.device_interface, Checks::none(),
                                     options.maximum_buffer_size);
        return hoist_size_limit_checks(result);
    }
    Stmt result = open_frame(s, placed, layout, entry);
    Checks checks{checks_on(), slice_table(), options.device_target};
    result = rewrite_allocations(result, placed, frame_base(), entry.device_interface, checks,
                                 options.maximum_buffer_size);
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
    const Plans plans = plan_both(census.candidates, options);
    PassReport report = make_report(s, census.candidates, census.preamble, plans.plan, plans.host_plan, options);
    Stmt result = rewrite(s, plans, report, options);
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
