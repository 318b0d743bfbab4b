#include "generator/lowering_pass.h"

#include "arena_pass.h"

namespace harena {
namespace {

struct ProbeDone {};

}  // namespace

ArenaLoweringPass::ArenaLoweringPass(PassOptions options, std::shared_ptr<LoweringPassState> state)
    : options_(std::move(options)), state_(std::move(state)) {
}

Halide::Internal::Stmt ArenaLoweringPass::mutate(const Halide::Internal::Stmt &s) {
    if (state_->probed != nullptr) {
        PassOptions quiet = options_;
        quiet.trace = 0;
        quiet.report_dir.clear();
        plan_arena(s, quiet, state_->probed);
        throw ProbeDone{};
    }
    state_->runs++;
    return plan_arena(s, options_);
}

PassReport probe_plan(Halide::Pipeline pipeline, LoweringPassState &state,
                      const std::vector<Halide::Argument> &arguments, const Halide::Target &target,
                      const std::string &function_name) {
    PassReport report;
    state.probed = &report;
    try {
        pipeline.compile_to_module(arguments, function_name, target);
    } catch (const ProbeDone &) {
    } catch (...) {
        state.probed = nullptr;
        throw;
    }
    state.probed = nullptr;
    return report;
}

}  // namespace harena
