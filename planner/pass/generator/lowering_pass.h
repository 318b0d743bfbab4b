#pragma once
// The planner pass as Halide runs it: a custom lowering pass
// (Pipeline::add_custom_lowering_pass) that plans each pipeline Halide lowers,
// and that can instead be asked for the arena's bytes alone, ending that
// lowering at the pass (probe_plan).
#include "types.h"
#include "halide_compat.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace harena {

// Shared by a pass and whoever attached it.
struct LoweringPassState {
    int runs = 0;                  // pipelines planned
    PassReport *probed = nullptr;  // set while probe_plan runs
};

class ArenaLoweringPass : public Halide::Internal::IRMutator {
public:
    ArenaLoweringPass(PassOptions options, std::shared_ptr<LoweringPassState> state);
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override;

private:
    PassOptions options_;
    std::shared_ptr<LoweringPassState> state_;
};

// The plan at the arguments' estimates for `target` (its arena_bytes are
// what a call at the estimates needs): `pipeline`, which has an
// ArenaLoweringPass sharing `state` attached, lowered once with `arguments`
// up to the pass, which plans quietly and ends the lowering.
PassReport probe_plan(Halide::Pipeline pipeline, LoweringPassState &state,
                      const std::vector<Halide::Argument> &arguments, const Halide::Target &target,
                      const std::string &function_name);

}  // namespace harena
