#pragma once
// What the pass decided, as a PassReport (types.h), and its trace: the
// decisions the plan report files (plan_report.h) and the trace both show.
#include "types.h"
#include "solver/solver.h"

#include <vector>

namespace harena {

// Every candidate's decision, in order, with the planned ones at `plan`'s
// offsets (plan.offsets[k] for the k-th candidate planned in the arena) or,
// for a GPU pipeline's host-only buffers, at `host_plan`'s (the host
// companion's), the representative values they depend on, and whether a
// call of `s` can be captured as a CUDA graph.
PassReport make_report(const Halide::Internal::Stmt &s, const std::vector<Candidate> &candidates,
                       const Preamble &preamble, const Plan &plan, const Plan &host_plan, const PassOptions &options);

// Prints the report to stderr at options.trace: 1, the summary line; 2, also
// why each buffer was or was not planned, whether a call is capturable and
// how long the pass took (`pass_seconds`).
void trace_plan(const PassReport &report, const PassOptions &options, double pass_seconds);

}  // namespace harena
