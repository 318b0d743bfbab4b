#pragma once
// Rewrites planned buffers to fixed slices of the arena: each is created
// already bound to `base + offset`, and every path that would allocate it,
// free it or hand it to Halide's allocation cache is removed.
#include "types.h"
#include "rewrite/parallel_slots.h"

namespace harena {

struct Placement {
    const Candidate *candidate = nullptr;
    Halide::Expr offset;  // UInt(64) from the frame's base, computed where the frame opens
    Halide::Expr bytes;   // UInt(64): the slice's bytes in this call, computed there too
    uint32_t slice = 0;   // its index in its frame's plan (for the arena, in the slice table: harena/pipeline_abi.h)
    // Host-only buffers of GPU pipelines: the base of the call's frame in the
    // arena's host companion, which `offset` counts from. Such a slice has no
    // slice events: the slice table, guard bands and memory checkers are the
    // device frame's.
    Halide::Expr host_base;
};

// What a call checks about its slices, decided where its frame opens.
// on: a Bool, true when the arena is in guard mode or a memory checker is
// attached; each slice event is then reported (harena_pipeline_slice).
// table: the call's slice table (a Handle), where an event that fails
// records its error for the frame's end, which fails the call.
// frees: whether frees are reported too. A memory checker (device targets)
// must see each slice die; guard mode alone does not need to: a band is
// checked when a later slice reuses its bytes and, at the latest, when the
// frame ends (harena_pipeline_slices_end), so host targets report only
// where slices are handed out.
struct Checks {
    Halide::Expr on;
    Halide::Expr table;
    bool frees = true;
    // No slice events: a pipeline whose arena is a buffer argument reports
    // nothing to the runtime.
    static Checks none() {
        return Checks{Halide::Expr(), Halide::Expr(), false};
    }
    [[nodiscard]] bool enabled() const {
        return on.defined();
    }
};

// `call`, an Int(32) status bound to `name`, checked as Halide checks its
// own: a nonzero status ends the pipeline with that code (the runtime has
// reported why). Where `when` is defined, only where it is nonzero.
Halide::Internal::Stmt checked_call(const std::string &name, const Halide::Expr &call,
                                    const Halide::Expr &when = Halide::Expr());

// `base` is the arena frame's address (UInt(64)); `device_interface` the
// interface planned device buffers are bound to (unused for host plans);
// `maximum_buffer_size` the target's (Target::maximum_buffer_size), which
// bounds a host buffer's bytes as codegen would check them.
// `placed` is keyed by Candidate::node. Where checks.on holds, each slice is
// reported handed out where its buffer is created and, where checks.frees,
// freed where it is freed (harena_pipeline_slice: its guard band and its life
// for a memory checker).
// Buffers of a parallel loop's iterations (Candidate::region) lie in a slot
// of their loop's pool in `slots`, at their offset within the slot; each of
// those loops takes and gives back a slot per task.
Halide::Internal::Stmt rewrite_allocations(const Halide::Internal::Stmt &s,
                                           const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                           const Halide::Expr &base, const Halide::Expr &device_interface,
                                           const Checks &checks, uint64_t maximum_buffer_size,
                                           const SlotPools &slots = {});

}  // namespace harena
