#pragma once
// The plan report written next to a planned library: <name>.arena.h (the
// arena bytes for the program that calls it), <name>.arena.json (every
// buffer, planned or not and why), <name>.arena.csv (the solver's problem
// format, replayable with harena-plan) and <name>.arena.svg (the packing).
#include "types.h"
#include "solver/solver.h"

#include <ostream>

namespace harena {

void write_plan_report(const PassReport &report, const Problem &problem, const Plan &plan,
                       const std::string &directory);

void write_plan_json(std::ostream &out, const PassReport &report);

// <name>.arena.h: the arena bytes as macros, for programs that allocate it:
// <NAME>_ARENA_BOUNDED, and <NAME>_ARENA_BYTES (the worst case) when it is 1,
// <NAME>_ARENA_BYTES_AT_ESTIMATES when it is 0.
std::string plan_header(const PassReport &report);

// One line: buffers planned, arena bytes, lower bound, ratio; for a pipeline
// without a worst case, which buffers are sized per call and the values of
// the names without a maximum that the plan was made at.
std::string plan_summary(const PassReport &report);

}  // namespace harena
