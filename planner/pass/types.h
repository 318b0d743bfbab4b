#pragma once
// The types the pass's folders share (size/, rewrite/, report/, generator/):
// the pass's options and report, the candidate buffers the census finds, the
// preamble's facts, and the names of Halide's runtime functions the pass
// recognises in lowered code. Each folder includes only this header, the
// Halide layer (halide_compat.h, host_allocation.h) and its own files
// (tests/layout/check_includes.py); arena_pass.cpp composes the folders.
#include "halide_compat.h"
#include "harena/pipeline_abi.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
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
    // The slots of each parallel loop whose iterations allocate planned
    // buffers: the most tasks of that loop that run in the arena at once,
    // each call (the pool takes this many times one iteration's bytes).
    // Tasks beyond them allocate from halide_malloc
    // (rewrite/parallel_slots.h): give at least the threads the pipeline
    // runs with.
    int parallel_slots = 16;
    // How a call gets its arena. Empty: through user_context, a harena_arena *
    // (harena/pipeline_abi.h). Otherwise the name of the pipeline's buffer
    // input (uint8, one dimension) whose memory is the arena
    // (rewrite/argument_frame.h): user_context stays the caller's and the library
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
    uint64_t offset = 0;  // in the arena, or for a slot's buffer within its slot
    // A buffer of a parallel loop's iterations: the loop, whose slots hold it.
    std::string slot_loop;
};

// A parallel loop whose iterations' buffers lie in slots of its pool.
struct SlotPoolReport {
    std::string loop;
    int slots = 0;             // the pool's capacity (harena.parallel_slots)
    uint64_t slot_bytes = 0;   // one slot: its sub-plan's bytes, aligned
    uint64_t offset = 0;       // the pool's offset in the arena
    int buffers = 0;           // the buffers of one iteration
    bool bounded = true;       // every one of them has a worst case
    uint64_t lower_bound = 0;  // the sub-plan's peak of live bytes
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
    // The parallel loops whose iterations' buffers lie in slots; their pools
    // are counted in plan_bytes and arena_bytes.
    std::vector<SlotPoolReport> slot_pools;
    bool capturable = false;     // one call captured as a CUDA graph replays it (harena/cuda.h)
    std::string not_capturable;  // why not, when it is not
    [[nodiscard]] int planned_count() const;
    [[nodiscard]] double ratio() const;
};

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
    // representative values (size/representative.h).
    uint64_t planned_bytes = 0;
    bool bounded = true;
    // Unbounded buffers: the argument fields and scalars without a declared
    // maximum that the size depends on.
    std::vector<std::string> unbounded_by;
    int64_t begin = 0, end = 0;  // half-open program steps
    // The parallel loop (an index into Census::regions) whose iterations
    // allocate this buffer, each in a slot of its own; 0: outside every
    // parallel loop, planned in the arena's frame.
    int region = 0;
};

// A parallel loop of the host whose iterations allocate planned buffers.
// Iterations run as concurrent tasks of Halide's thread pool, so the buffers
// of one iteration are planned in a sub-plan of their own (lifetimes counted
// within the iteration), and each running task takes a slot of the loop's
// pool: slots x the sub-plan's bytes, reserved in the frame while the
// outermost parallel loop around it runs (rewrite/parallel_slots.h).
struct ParallelRegion {
    const Halide::Internal::For *loop = nullptr;  // null for region 0, the frame itself
    std::string loop_name;
    // The outermost parallel loop around this one (itself if none): the
    // pool's lifetime, and where the slot states are kept and initialized.
    int outermost = 0;
    // The steps the outermost loop spans, widened to an async body around it
    // (whose other branches run meanwhile).
    int64_t begin = 0, end = 0;
};

// What the census finds: the candidates and the parallel regions they lie in
// (regions[0] is the frame; Candidate::region indexes the rest).
struct Census {
    std::vector<Candidate> candidates;
    std::vector<ParallelRegion> regions;
};

struct CensusOptions {
    bool device_target = false;  // the pipeline has a GPU feature
    Unbounded unbounded = Unbounded::PlanPerCall;
};

// What the pipeline checks before its frame opens (size/preamble.h reads it).
struct Preamble {
    // Bounds of the variables the preamble defines or constrains (argument
    // fields like output.extent.0, scalar params, lets over them).
    Halide::Internal::Scope<Halide::Internal::Interval> bounds;
    // Names whose lower bound in `bounds` rests on an argument buffer's extent
    // being taken as never negative, which the preamble does not check: it
    // may bound a size, but no form that is exact only above it may use it.
    std::set<std::string> assumed_minimum;
    // Names defined by lets in the preamble: visible where the frame opens.
    std::set<std::string> visible;
    // Their definitions, for tracing an unbounded size to the argument or
    // parameter that leaves it unbounded.
    std::map<std::string, Halide::Expr> definitions;
    // The same lets in program order, and the scalar parameters the statement
    // refers to: what representative bounds are recomputed from.
    std::vector<std::pair<std::string, Halide::Expr>> lets;
    std::map<std::string, Parameter> scalars;
    // The bounds above with a representative value for every argument field
    // and scalar parameter that has no declared bound (size/representative.h).
    Halide::Internal::Scope<Halide::Internal::Interval> representative;
    struct Assumption {
        double value = 0;    // an integer but for floating-point scalars
        std::string source;  // where the value comes from, for messages
    };
    // The representative values taken, by name.
    std::map<std::string, Assumption> assumed;
    // Every name whose representative bounds are a single value, as that
    // constant: scalars and argument fields, and the lets that fold to a
    // constant once those are substituted. Interval arithmetic loses a size
    // computed through floating point (a grid cell from ceil(w / s_sigma),
    // a loop bound from floor(x / t)); evaluating it at these points does not.
    std::map<std::string, Halide::Expr> points;
};

// Halide's runtime functions the pass recognises in lowered code, or
// replaces. Halide's error reports, each recognised in one place, are named
// there.
namespace halide_names {
inline constexpr const char *kCopyToDevice = "halide_copy_to_device";
inline constexpr const char *kDeviceMalloc = "halide_device_malloc";
inline constexpr const char *kDeviceAndHostMalloc = "halide_device_and_host_malloc";
inline constexpr const char *kDeviceFree = "halide_device_free";
inline constexpr const char *kDeviceAndHostFree = "halide_device_and_host_free";
inline constexpr const char *kDeviceFreeAsDestructor = "halide_device_free_as_destructor";
inline constexpr const char *kDeviceAndHostFreeAsDestructor = "halide_device_and_host_free_as_destructor";
// Halide's no-op free: the arena, not the pipeline, owns planned memory.
inline constexpr const char *kNopFree = "halide_device_host_nop_free";
// The error of a buffer larger than the target allows, which the pass's size
// checks report as Halide's codegen does.
inline constexpr const char *kAllocationTooLarge = "halide_error_buffer_allocation_too_large";
// A failed requirement: what the pipeline's declared bounds report, which the
// preamble reads as bounds, and what an arena argument's size check reports.
inline constexpr const char *kRequirementFailed = "halide_error_requirement_failed";
}  // namespace halide_names

// Halide names the halide_buffer_t of allocation <name> "<name>.buffer":
// <name> for such a name, "" for any other.
std::string buffer_owner(const std::string &name);

// Whether a condition tests Halide's bounds query (a buffer argument with no
// memory, whose shape the call fills in instead of running).
bool is_bounds_query_test(const Halide::Expr &cond);

// `if (!(bounds query || ...)) { the pipeline }`, with no else: the branch of
// a lowered pipeline that runs it (the bounds-query side only fills in shapes).
bool is_pipeline_branch(const Halide::Internal::IfThenElse *op);

// An Allocate that is a halide_buffer_t created by its new_expr, named
// <name>.buffer: how Halide lifts heap allocations out of GPU kernels.
bool is_buffer_object(const Halide::Internal::Allocate *op);

}  // namespace harena
