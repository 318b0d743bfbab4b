#pragma once
// Finds the intermediates of a lowered pipeline that the arena can hold, with
// their program-order lifetimes, their planned sizes (a worst case, or the
// bytes at representative values) and what each call needs.
#include "arena_pass.h"
#include "buffer_facts.h"
#include "preamble.h"

#include <map>

namespace harena {

enum class BufferKind {
    Device,         // device memory bound through the buffer's halide_buffer_t
    DeviceAndHost,  // the same, for a buffer Halide also keeps on the host
                    // (halide_device_and_host_malloc); the host part stays Halide's
    Host,           // a heap Allocate of a host pipeline or, in a GPU pipeline, a
                    // host-only buffer (planned in the arena's host companion)
};

// A GPU pipeline's host-only buffer: it lies in the arena's host companion,
// planned apart from the device buffers.
inline bool in_host_companion(BufferKind kind, bool device_target) {
    return device_target && kind == BufferKind::Host;
}

struct Candidate {
    // The Allocate, or for DeviceAndHost the `let <name>.buffer` that creates
    // the buffer (Halide allocates such buffers before their Allocate node).
    const Halide::Internal::IRNode *node = nullptr;
    std::string name;
    BufferKind kind = BufferKind::Host;
    bool planned = false;
    std::string reason;  // why it is (not) planned
    Halide::Expr size;   // bytes as Int(64), enclosing lets substituted
    // Host buffers: the same bytes (UInt(64)) in the names in scope where the
    // buffer is created (its extents), far shorter where they are long lets'
    // results.
    Halide::Expr size_where_created;
    // Planned buffers: at least `size` wherever the buffer is created in a
    // call, and evaluable where the frame opens (Int(64)).
    Halide::Expr per_call;
    // per_call is a bound derived over the loops around the buffer (or its
    // worst case), not the size itself: checked where the buffer is created.
    bool check_where_created = false;
    // The solver's size: the worst case when `bounded`, else the bytes at the
    // representative values (representative.h).
    uint64_t planned_bytes = 0;
    bool bounded = true;
    // Unbounded buffers: the argument fields and scalars without a declared
    // maximum that the size depends on.
    std::vector<std::string> unbounded_by;
    int64_t begin = 0, end = 0;  // half-open program steps
};

struct CensusOptions {
    bool device_target = false;  // the pipeline has a GPU feature
    Unbounded unbounded = Unbounded::PlanPerCall;
};

// Throws Halide::CompileError for a size without a declared maximum when
// options.unbounded is Unbounded::Error.
std::vector<Candidate> take_census(const Halide::Internal::Stmt &s, const Preamble &preamble,
                                   const CensusOptions &options);

}  // namespace harena
