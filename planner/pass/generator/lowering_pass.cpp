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
    if (state_->probed_bytes != nullptr) {
        PassOptions quiet = options_;
        quiet.trace = 0;
        quiet.report_dir.clear();
        PassReport report;
        plan_arena(s, quiet, &report);
        *state_->probed_bytes = report.arena_bytes;
        throw ProbeDone{};
    }
    state_->runs++;
    return plan_arena(s, options_);
}

uint64_t probe_arena_bytes(Halide::Pipeline pipeline, LoweringPassState &state,
                           const std::vector<Halide::Argument> &arguments, const Halide::Target &target,
                           const std::string &function_name) {
    uint64_t bytes = 0;
    state.probed_bytes = &bytes;
    try {
        pipeline.compile_to_module(arguments, function_name, target);
    } catch (const ProbeDone &) {
    } catch (...) {
        state.probed_bytes = nullptr;
        throw;
    }
    state.probed_bytes = nullptr;
    return bytes;
}

}  // namespace harena
