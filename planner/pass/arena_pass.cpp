#include "arena_pass.h"

#include "buffer_census.h"
#include "capturability.h"
#include "open_frame.h"
#include "pass_report.h"
#include "plan_report.h"
#include "preamble.h"
#include "representative.h"
#include "rewrite_allocations.h"
#include "route_argument_buffers.h"
#include "route_key_host_buffers.h"
#include "run_layout.h"
#include "solver/solver.h"
#include "solver/validator.h"

#include <algorithm>
#include <chrono>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

int PassReport::planned_count() const {
    int n = 0;
    for (const BufferDecision &b : buffers) {
        n += b.planned;
    }
    return n;
}

double PassReport::ratio() const {
    return lower_bound ? (double)plan_bytes / (double)lower_bound : 1.0;
}

namespace {

// The pipeline's allocations as the planner sees them, with the preamble
// their sizes are bounded by.
struct Census {
    Preamble preamble;
    std::vector<Candidate> candidates;
};

Census find_candidates(const Stmt &s, const PassOptions &options) {
    Census census{read_preamble(s), {}};
    choose_representative_values(census.preamble, options.nominal_extent);
    census.candidates = take_census(s, census.preamble, CensusOptions{options.device_target, options.unbounded});
    return census;
}

// The solver's problem: one buffer per planned candidate, in candidate
// order; planned[i] is the candidate of problem.buffers[i].
struct Planning {
    Problem problem;
    std::vector<const Candidate *> planned;
};

Planning build_problem(const std::vector<Candidate> &candidates, const PassOptions &options) {
    Planning planning;
    std::vector<Buffer> &buffers = planning.problem.buffers;
    for (const Candidate &c : candidates) {
        if (!c.planned) {
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

// Each planned buffer becomes a slice at this call's offset (the plan
// replayed for the call's sizes, run_layout.h) of a frame the pipeline
// opens just before it uses the first of them.
Stmt rewrite(const Stmt &s, const Planning &planning, const Plan &plan, const PassReport &report,
             const PassOptions &options) {
    if (planning.planned.empty()) {
        return s;
    }
    RunLayout layout = run_layout(planning.problem, plan, planning.planned, options.alignment);
    std::map<const IRNode *, Placement> placed;
    for (size_t k = 0; k < planning.planned.size(); k++) {
        placed[planning.planned[k]->node] =
            Placement{planning.planned[k], layout.offsets[k], layout.sizes[k], static_cast<uint32_t>(k)};
    }
    FrameEntry entry;
    entry.pipeline = options.pipeline_name;
    entry.device_interface = planned_device_interface(s, options.device_target);
    entry.worst_case_bytes = report.bounded ? report.arena_bytes : 0;
    entry.traits = HARENA_PIPELINE_GUARDS | (report.capturable ? HARENA_PIPELINE_CAPTURABLE : 0);
    entry.alignment = options.alignment;
    entry.device_target = options.device_target;
    entry.slice_names = slice_names(options.pipeline_name, planning.planned);
    Stmt result = open_frame(s, placed, layout, entry);
    Checks checks{checks_on(), slice_table(), options.device_target};
    result = rewrite_allocations(result, placed, frame_base(), entry.device_interface, checks);
    if (report.capturable) {
        result = route_key_host_buffers(result, key_host_buffers(s));
    }
    return options.device_target ? route_argument_buffers(result) : result;
}

}  // namespace

Stmt plan_arena(const Stmt &s, const PassOptions &options, PassReport *report_out) {
    const auto start = std::chrono::steady_clock::now();
    const Census census = find_candidates(s, options);
    const Planning planning = build_problem(census.candidates, options);
    const Plan plan = solve_and_validate(planning.problem, options.pipeline_name);
    PassReport report = make_report(s, census.candidates, census.preamble, plan, options);
    Stmt result = rewrite(s, planning, plan, report, options);
    trace_plan(report, options, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!options.report_dir.empty()) {
        write_plan_report(report, planning.problem, plan, options.report_dir);
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
