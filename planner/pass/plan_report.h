#pragma once
// The plan report written next to a planned library: <name>.arena.h (the
// arena bytes for the program that calls it), <name>.arena.json (every
// buffer, planned or not and why), <name>.arena.csv (the solver's problem
// format, replayable with harena-plan) and <name>.arena.svg (the packing).
#include "arena_pass.h"
#include "solver/solver.h"

#include <ostream>

namespace harena {

void write_plan_report(const PassReport &report, const Problem &problem, const Plan &plan,
                       const std::string &directory);

void write_plan_json(std::ostream &out, const PassReport &report);

// <name>.arena.h: the arena bytes as macros, for programs that allocate it.
std::string plan_header(const PassReport &report);

// One line: buffers planned, arena bytes, lower bound, ratio.
std::string plan_summary(const PassReport &report);

}  // namespace harena
