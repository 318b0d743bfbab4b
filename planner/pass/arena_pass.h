#pragma once
// The arena planner pass: finds the intermediate buffers of a lowered Halide
// pipeline, bounds their sizes, plans them into one arena with the offset solver
// and rewrites each planned buffer to a fixed slice of the arena that the
// pipeline's user_context (a harena_arena *) or one of its buffer arguments
// (PassOptions::arena_argument) supplies at entry.
#include "Halide.h"
#include "harena/pipeline_abi.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harena {

// What to do with a buffer whose size depends on something without a
// declared maximum (a scalar with only an estimate, an output's extent).
enum class Unbounded {
    // Plan it anyway: the layout is chosen at representative sizes (declared
    // maxima, estimates, the nominal extent) and each call's offsets and
    // bytes follow that call's sizes. The pipeline has no compile-time worst
    // case.
    PlanPerCall,
    // Leave it to the runtime allocator (Halide's, or the arena's override).
    Runtime,
    // Fail the build with a message saying which maximum to declare.
    Error,
};

struct PassOptions {
    // Name used in messages, in the arena's frame records and for report files.
    std::string pipeline_name = "pipeline";
    // Where the plan report (<name>.arena.json/.csv/.svg) is written; empty: none.
    std::string report_dir;
    // Buffers without a worst case over the declared bounds.
    Unbounded unbounded = Unbounded::PlanPerCall;
    // The representative value of an extent or scalar that has neither a
    // declared maximum nor an estimate.
    int64_t nominal_extent = 1024;
    // Plan device buffers (the target has a GPU feature) rather than host heap
    // allocations: an arena is either device memory or host memory. A GPU
    // pipeline's host-only buffers are planned apart, in the device arena's
    // host companion (harena/runtime.h).
    bool device_target = false;
    // Byte alignment of every planned offset (harena/pipeline_abi.h says why
    // the default); the arena a call runs in must be aligned at least as much.
    uint64_t alignment = HARENA_DEFAULT_ALIGNMENT;
    // The largest buffer, in bytes, the target allows
    // (Target::maximum_buffer_size(): 2^31 - 1 unless large_buffers).
    uint64_t maximum_buffer_size = (uint64_t(1) << 31) - 1;
    // 0: silent; 1: a summary line; 2: one line per buffer saying why it was or
    // was not planned.
    int trace = 1;
    // How a call gets its arena. Empty: through user_context, a harena_arena *
    // (harena/pipeline_abi.h). Otherwise the name of the pipeline's buffer
    // input (uint8, one dimension) whose memory is the arena
    // (argument_frame.h): user_context stays the caller's and the library
    // calls nothing of halide-arena's runtime.
    std::string arena_argument;
};

// What the pass decided about one allocation.
struct BufferDecision {
    std::string name;
    std::string kind;  // "device", "host", or the kind left alone
    bool planned = false;
    bool in_host_companion = false;  // planned in the device arena's host companion
    std::string reason;              // why not planned (or how it was planned)
    std::string size_expr;           // symbolic bytes, as Halide prints it
    // The bytes the plan was made with: the worst case when `bounded`, else
    // the bytes at the representative values (each call computes its own).
    uint64_t planned_bytes = 0;
    bool bounded = true;
    std::vector<std::string> unbounded_by;  // names without a maximum it depends on
    int64_t begin = 0, end = 0;
    uint64_t offset = 0;
};

// A value the plan was made at for a name without a declared maximum.
struct RepresentativeValue {
    std::string name;    // an argument field (output.extent.0) or a scalar
    double value = 0;    // an integer but for floating-point scalars
    std::string source;  // "its estimate", "the nominal extent ...", ...
};

struct PassReport {
    std::string pipeline_name;
    std::vector<BufferDecision> buffers;
    // Every buffer planned in the arena is bounded: arena_bytes is the worst
    // case of any call within the declared bounds. Otherwise it is the bytes a call at the
    // representative values needs, and a call may need more.
    bool bounded = true;
    // The values of names without a maximum that planned sizes depend on.
    std::vector<RepresentativeValue> representative;
    uint64_t plan_bytes = 0;   // the solver's arena: highest offset + size
    uint64_t arena_bytes = 0;  // what to allocate: plan_bytes rounded up to the
                               // alignment, the unit the arena reserves in
    uint64_t lower_bound = 0;
    double solve_seconds = 0;
    // The host companion's plan (a GPU pipeline's host-only buffers, planned
    // as a problem of their own): its bytes, a worst case when host_bounded.
    int host_planned = 0;
    uint64_t host_arena_bytes = 0;
    bool host_bounded = true;
    bool capturable = false;     // one call captured as a CUDA graph replays it (harena/cuda.h)
    std::string not_capturable;  // why not, when it is not
    [[nodiscard]] int planned_count() const;
    [[nodiscard]] double ratio() const;
};

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
