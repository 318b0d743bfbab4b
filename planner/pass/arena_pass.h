#pragma once
// The arena planner pass: finds the intermediate buffers of a lowered Halide
// pipeline, bounds their sizes, plans them into one arena with the offset solver
// and rewrites each planned buffer to a fixed slice of the arena that the
// pipeline's user_context (a harena_arena *) supplies at entry.
#include "Halide.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harena {

struct PassOptions {
    // Name used in messages, in the arena's frame records and for report files.
    std::string pipeline_name = "pipeline";
    // Where the plan report (<name>.arena.json/.csv/.svg) is written; empty: none.
    std::string report_dir;
    // Leave buffers whose worst-case size cannot be bounded to the runtime path
    // (Halide's allocator, or the arena's halide_device_malloc override) instead
    // of failing the build.
    bool unbounded_to_runtime = false;
    // Plan device buffers (the target has a GPU feature) rather than host heap
    // allocations: an arena is either device memory or host memory.
    bool device_target = false;
    // Byte alignment of every planned offset: CUDA's allocation alignment, and
    // the width PTX assumes for vector loads from noalias kernel arguments.
    uint64_t alignment = 256;
    // 0: silent; 1: a summary line; 2: one line per buffer saying why it was or
    // was not planned.
    int trace = 1;
};

// What the pass decided about one allocation.
struct BufferDecision {
    std::string name;
    std::string kind;          // "device", "host", or the kind left alone
    bool planned = false;
    std::string reason;        // why not planned (or how it was planned)
    std::string size_expr;     // symbolic bytes, as Halide prints it
    uint64_t worst_bytes = 0;  // planned bytes
    int64_t begin = 0, end = 0;
    uint64_t offset = 0;
};

struct PassReport {
    std::string pipeline_name;
    std::vector<BufferDecision> buffers;
    uint64_t plan_bytes = 0;   // the solver's arena: highest offset + size
    uint64_t arena_bytes = 0;  // what to allocate: plan_bytes rounded up to the
                               // alignment, the unit the arena reserves in
    uint64_t lower_bound = 0;
    double solve_seconds = 0;
    bool capturable = false;   // one call captured as a CUDA graph replays it (harena/cuda.h)
    [[nodiscard]] int planned_count() const;
    [[nodiscard]] double ratio() const;
};

// Plans and rewrites `s` (a statement at Halide's custom-lowering-pass point).
// Throws Halide::CompileError for a user mistake (an unbounded size, with what
// to declare) and fills `report` when given.
Halide::Internal::Stmt plan_arena(const Halide::Internal::Stmt &s, const PassOptions &options,
                                  PassReport *report = nullptr);

// The pass as Halide's custom lowering passes expect it: Pipeline owns it.
class ArenaPlannerPass : public Halide::Internal::IRMutator {
public:
    explicit ArenaPlannerPass(PassOptions options) : options_(std::move(options)) {}
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override;

private:
    PassOptions options_;
};

}  // namespace harena
