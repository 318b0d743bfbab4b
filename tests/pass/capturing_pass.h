#pragma once
// Runs the planner at Halide's custom-lowering-pass point of a real
// pipeline's lowering and keeps what it produced, for the lowered-pipeline
// tests.
#include "arena_pass.h"

namespace harena_test {

struct Lowered {
    Halide::Internal::Stmt stmt;
    harena::PassReport report;
};

class CapturingPass : public Halide::Internal::IRMutator {
public:
    CapturingPass(harena::PassOptions o, Lowered *out) : options(std::move(o)), out(out) {}
    using Halide::Internal::IRMutator::mutate;
    Halide::Internal::Stmt mutate(const Halide::Internal::Stmt &s) override {
        out->stmt = harena::plan_arena(s, options, &out->report);
        return out->stmt;
    }

private:
    harena::PassOptions options;
    Lowered *out;
};

}  // namespace harena_test
