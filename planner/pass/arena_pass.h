#pragma once
// The arena planner pass: finds the intermediate buffers of a lowered Halide
// pipeline, bounds their sizes, plans them into one arena with the offset solver
// and rewrites each planned buffer to a fixed slice of the arena that the
// pipeline's user_context (a harena_arena *) or one of its buffer arguments
// (PassOptions::arena_argument) supplies at entry.
#include "types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harena {

// Plans and rewrites `s` (a statement at Halide's custom-lowering-pass point).
// Fills `report` when given. Errors follow Halide's two channels, in every
// file of the pass: Halide::CompileError for a user's mistake, saying what to
// change (with Unbounded::Error, a size without a maximum and what to
// declare; a plan report that cannot be written), Halide::InternalError for a
// broken invariant of the pass; nothing ends the process.
Halide::Internal::Stmt plan_arena(const Halide::Internal::Stmt &s, const PassOptions &options,
                                  PassReport *report = nullptr);

// The pass as Halide's custom lowering passes expect it: Pipeline owns it.
class ArenaPlannerPass : public Halide::Internal::IRMutator {
public:
    explicit ArenaPlannerPass(PassOptions options)
        : options_(std::move(options)) {
    }
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override;

private:
    PassOptions options_;
};

}  // namespace harena
