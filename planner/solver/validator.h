// Checks a plan against its problem without trusting the solver: a short,
// obviously correct pairwise test that shares no code or data structure with
// the solver, so that tests and the planner pass can rely on it.
#pragma once

#include <string>

#include "solver/problem.h"
#include "solver/solver.h"

namespace harena {

struct Validation {
    bool ok = true;
    // When !ok: names the two overlapping buffers (ids, lifetimes, byte
    // ranges), or the one that is misaligned or outside the arena, or the
    // mismatch between arena_bytes and the highest end.
    std::string error;
};

// Pairs are only pruned by sorting on begin time, so the cost is
// O(n log n + pairs of buffers alive together).
Validation validate(const Problem &, const Plan &);

}  // namespace harena
