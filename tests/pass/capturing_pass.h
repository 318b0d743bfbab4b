#pragma once
// Runs the planner at Halide's custom-lowering-pass point of a real
// pipeline's lowering and keeps what it produced, for the lowered-pipeline
// tests.
#include "arena_pass.h"
#include "pass_builders.h"

#include <string>
#include <vector>

namespace harena_test {

struct Lowered {
    Halide::Internal::Stmt stmt;
    harena::PassReport report;
};

class CapturingPass : public Halide::Internal::IRMutator {
public:
    CapturingPass(harena::PassOptions o, Lowered *out)
        : options(std::move(o)), out(out) {
    }
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override {
        out->stmt = harena::plan_arena(s, options, &out->report);
        return out->stmt;
    }

private:
    harena::PassOptions options;
    Lowered *out;
};

// Compiles `p` as function `name` for `target` (with a user_context) with
// the planner at the custom-lowering-pass point, quiet unless options say
// otherwise; the plan is named `name` and is a device plan for a GPU target.
inline Lowered lower_for(Halide::Pipeline &p, const std::vector<Halide::Argument> &arguments, const std::string &name,
                         const Halide::Target &target, harena::PassOptions options = quiet()) {
    Lowered l;
    options.pipeline_name = name;
    options.device_target = target.has_gpu_feature();
    p.add_custom_lowering_pass(new CapturingPass(std::move(options), &l));
    p.compile_to_module(arguments, name, target.with_feature(Halide::Target::UserContext));
    return l;
}

// lower_for on the host target.
inline Lowered lower_for_host(Halide::Pipeline &p, const std::vector<Halide::Argument> &arguments,
                              const std::string &name, harena::PassOptions options = quiet()) {
    return lower_for(p, arguments, name, Halide::get_host_target(), std::move(options));
}

}  // namespace harena_test
