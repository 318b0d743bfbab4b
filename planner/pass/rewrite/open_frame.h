#pragma once
// Opens a planned pipeline's arena frame: evaluates the call's layout
// (run_layout.h) and enters the arena just before the first planned buffer is
// used, and leaves it on every exit path, success or error.
#include "rewrite/rewrite_allocations.h"
#include "rewrite/run_layout.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace harena {

// What the pipeline tells the runtime at entry (harena/pipeline_abi.h).
struct FrameEntry {
    std::string pipeline;
    Halide::Expr device_interface;  // of its planned buffers; a null handle for host plans
    uint64_t worst_case_bytes = 0;  // 0: no worst case (sizes without a declared maximum)
    uint32_t traits = 0;            // enum harena_pipeline_traits
    uint64_t alignment = 0;         // the plan's
    bool device_target = false;     // asks once per call whether a memory checker is attached
    std::string slice_names;        // of its slice table (slice_names)
    // Host-only buffers of a GPU pipeline, in the arena's host companion:
    // their layout (null when none is planned), their names for messages, and
    // their worst case (0: none).
    const RunLayout *host_layout = nullptr;
    std::string host_buffers;
    uint64_t host_worst_case_bytes = 0;
};

// Whether `s` holds an allocation of `placed`.
bool mentions_placed(const Halide::Internal::Stmt &s,
                     const std::map<const Halide::Internal::IRNode *, Placement> &placed);

// `prologue` applied to the innermost statement on `s`'s top-level spine
// that holds every planned allocation, the rest of the spine rebuilt around
// it. A frame must open after the argument checks: Halide emits a run of
// four or more asserts as one batch whose failure returns without running
// registered destructors, so a frame opened before such a batch would stay
// pushed when a check fails.
Halide::Internal::Stmt open_before_first_use(const Halide::Internal::Stmt &s,
                                             const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                             const std::function<Halide::Internal::Stmt(const Halide::Internal::Stmt &)> &prologue);

// The names of the frame's slice table (harena/pipeline_abi.h): the
// pipeline's name, then the buffer of each slice (Placement::slice) in index order.
std::string slice_names(const std::string &pipeline, const std::vector<const Candidate *> &planned);

// The frame's address (UInt(64)); whether slice events are reported in this
// call (Bool: guard mode, or for device plans a memory checker attached); the
// call's slice table (Handle); as the frame binds them.
Halide::Expr frame_base();
// The address of the call's frame in the host companion (UInt(64)).
Halide::Expr host_frame_base();
Halide::Expr checks_on();
Halide::Expr slice_table();

// The interface the pipeline allocates or copies its first device buffer
// with; undefined where it has none.
Halide::Expr find_device_interface(const Halide::Internal::Stmt &s);

// The interface the pipeline itself allocates its device buffers with, which
// the planned ones are bound to; a null handle for host plans.
Halide::Expr planned_device_interface(const Halide::Internal::Stmt &s, bool device_target);

// `s` with the frame (and the host companion's, where entry.host_layout is
// set) opened around the innermost statement of its top-level
// spine that holds every buffer of `placed`. Only the spine is rebuilt, so
// Allocate nodes keep their identity.
Halide::Internal::Stmt open_frame(const Halide::Internal::Stmt &s,
                                  const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                  const RunLayout &layout, const FrameEntry &entry);

// `s` opening no frame: a GPU pipeline that plans nothing declares its
// traits (harena_pipeline_declare) at its start, before any work, so that a
// graph cache capturing the call learns whether one call replays it.
Halide::Internal::Stmt declare_traits(const Halide::Internal::Stmt &s, uint32_t traits);

}  // namespace harena
