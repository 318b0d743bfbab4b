// Checks a plan against its problem without trusting the solver: a short,
// obviously correct pairwise test, so that tests and the planner pass can rely
// on it. It reads the solver's interface types (Problem, Buffer, Plan) and
// shares one piece of code with the solver library: solver/detail/describe.h,
// which writes a buffer's name, lifetime and byte range into a message (the
// input checks of problem.cpp and csv.cpp use it too). That code only formats
// text and decides nothing; the check uses none of the solver's placement code
// or its data structures, so a fault there cannot hide an overlap here.
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
