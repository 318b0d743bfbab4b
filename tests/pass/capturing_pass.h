#pragma once
// Runs the planner at Halide's custom-lowering-pass point of a real
// pipeline's lowering and keeps what it produced, for the lowered-pipeline
// tests.
#include "arena_pass.h"

#include <string>
#include <vector>

namespace harena_test {

struct Lowered {
    Halide::Internal::Stmt stmt;
    harena::PassReport report;
};

inline harena::PassOptions quiet() {
    harena::PassOptions o;
    o.trace = 0;
    return o;
}

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

// Compiles `p` for the host (with a user_context) with the planner at the
// custom-lowering-pass point, quiet unless options say otherwise.
inline Lowered lower_for_host(Halide::Pipeline &p, const std::vector<Halide::Argument> &arguments,
                              const std::string &name, harena::PassOptions options = quiet()) {
    Lowered l;
    p.add_custom_lowering_pass(new CapturingPass(std::move(options), &l));
    p.compile_to_module(arguments, name, Halide::get_host_target().with_feature(Halide::Target::UserContext));
    return l;
}

}  // namespace harena_test
