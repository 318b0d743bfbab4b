#pragma once
// Finds the intermediates of a lowered pipeline that the arena can hold, with
// their program-order lifetimes and worst-case sizes.
#include "arena_pass.h"
#include "preamble.h"

#include <map>

namespace harena {

enum class BufferKind {
    Device,         // device memory bound through the buffer's halide_buffer_t
    DeviceAndHost,  // the same, for a buffer Halide also keeps on the host
                    // (halide_device_and_host_malloc); the host part stays Halide's
    Host,           // a heap Allocate of a host pipeline
};

struct Candidate {
    // The Allocate, or for DeviceAndHost the `let <name>.buffer` that creates
    // the buffer (Halide allocates such buffers before their Allocate node).
    const Halide::Internal::IRNode *node = nullptr;
    std::string name;
    BufferKind kind = BufferKind::Host;
    bool planned = false;
    std::string reason;       // why it is (not) planned
    Halide::Expr size;        // bytes as Int(64), enclosing lets substituted
    bool size_at_entry = false;  // `size` can be evaluated where the frame opens
    uint64_t worst_bytes = 0;
    int64_t begin = 0, end = 0;  // half-open program steps
};

struct CensusOptions {
    bool device_target = false;      // the pipeline has a GPU feature
    bool unbounded_to_runtime = false;
};

// Halide names the halide_buffer_t of allocation <name> "<name>.buffer":
// <name> for such a name, "" for any other.
std::string buffer_owner(const std::string &name);

// An Allocate that is a halide_buffer_t created by its new_expr, named
// <name>.buffer: how Halide lifts heap allocations out of GPU kernels.
bool is_buffer_object(const Halide::Internal::Allocate *op);

// Throws Halide::CompileError for a size that cannot be bounded (unless
// unbounded_to_runtime is set, in which case the buffer is left unplanned).
std::vector<Candidate> take_census(const Halide::Internal::Stmt &s, const Preamble &preamble,
                                   const CensusOptions &options);

}  // namespace harena
