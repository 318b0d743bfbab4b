#pragma once
// A plan made for the worst-case sizes, replayed for smaller ones. Each buffer
// keeps the buffers it sat on in the plan (those alive at the same time and
// entirely below it) and moves down onto them: with every size at most its
// worst case, no two buffers alive together can overlap, and a run far below
// the declared maxima needs far less than the worst-case arena.

#include <cstdint>
#include <vector>

#include "solver/problem.h"
#include "solver/solver.h"

namespace harena {

// For each buffer, the buffers it rests on: alive at the same time, of
// nonzero size and ending at or below its offset. Indices are in
// Problem::buffers order; the relation is acyclic (each support starts
// strictly lower).
std::vector<std::vector<size_t>> supports(const Problem &problem, const Plan &plan);

// Offsets for `sizes` (one per buffer, each at most its planned size): each
// buffer starts where the highest of its supports ends, rounded up to the
// buffer's alignment.
std::vector<uint64_t> compact_offsets(const Problem &problem, const Plan &plan, const std::vector<uint64_t> &sizes);

}  // namespace harena
