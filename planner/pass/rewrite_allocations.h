#pragma once
// Rewrites planned buffers to fixed slices of the arena: each is created
// already bound to `base + offset`, and every path that would allocate it,
// free it or hand it to Halide's allocation cache is removed.
#include "buffer_census.h"

namespace harena {

struct Placement {
    const Candidate *candidate = nullptr;
    Halide::Expr offset;  // UInt(64) from the frame's base, computed where the frame opens
    Halide::Expr bytes;   // UInt(64): the slice's bytes in this call, computed there too
};

// What a call checks about its slices, decided where its frame opens.
// guard_bytes: the band after each slice (UInt(64), 0 when the arena is not in
// guard mode). nvtx: nonzero (Int(32)) when a memory checker is attached and
// each device slice is declared to it while live; undefined for host plans.
// pipeline: the name the reports give.
struct Checks {
    Halide::Expr guard_bytes;
    Halide::Expr nvtx;
    std::string pipeline;
};

// `call`, an Int(32) status bound to `name`, checked as Halide checks its
// own: a nonzero status ends the pipeline with that code (the runtime has
// reported why). Where `when` is defined, only where it is nonzero.
Halide::Internal::Stmt checked_call(const std::string &name, const Halide::Expr &call,
                                    const Halide::Expr &when = Halide::Expr());

// `base` is the arena frame's address (UInt(64)); `device_interface` the
// interface planned device buffers are bound to (unused for host plans).
// `placed` is keyed by Candidate::node. Where checks.guard_bytes is not 0 each
// slice's band is filled where its buffer is created and checked where it is
// freed (harena_guard_slice, harena_guard_check); where checks.nvtx is not 0
// each slice is declared live there and dead here (harena_nvtx_region).
Halide::Internal::Stmt rewrite_allocations(const Halide::Internal::Stmt &s,
                                           const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                           const Halide::Expr &base, const Halide::Expr &device_interface,
                                           const Checks &checks);

}  // namespace harena
