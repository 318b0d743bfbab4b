#pragma once
// The plan replayed for one call's sizes (solver/compaction.h), as the lets a
// planned pipeline evaluates where its frame opens.
#include "types.h"
#include "solver/solver.h"

#include <string>
#include <utility>
#include <vector>

namespace harena {

struct RunLayout {
    std::vector<std::pair<std::string, Halide::Expr>> lets;  // in dependency order
    Halide::Expr guard;                                      // the band after each slice, 0 unless in guard mode
    std::vector<Halide::Expr> offsets;                       // per planned buffer, in problem order
    std::vector<Halide::Expr> sizes;                         // per planned buffer: its bytes in this run
    Halide::Expr needed;                                     // bytes this run touches
};

// Each buffer starts where the highest of the buffers it rests on in `plan`
// ends, for this call's sizes; in guard mode (harena_pipeline_guard_bytes)
// every slice is followed by a band and the frame starts with one.
// `planned[i]` is problem.buffers[i]'s candidate. The lets' names start with
// `prefix`, the band's first; `guard_bands` false lays the slices out without
// bands (the host companion's, harena/pipeline_abi.h), and `guard` is then 0.
// `shared_guard`, where defined, is the band another layout's let holds (a
// slot's sub-plan banded as its frame is), and this layout has no let of its
// own for it.
RunLayout run_layout(const Problem &problem, const Plan &plan, const std::vector<const Candidate *> &planned,
                     uint64_t alignment, const std::string &prefix = "harena.", bool guard_bands = true,
                     const Halide::Expr &shared_guard = Halide::Expr());

}  // namespace harena
