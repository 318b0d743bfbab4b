#pragma once
// Statements and options the pass tests build by hand, and the decision the
// pass reports for one buffer.
#include "arena_pass.h"
#include "halide_compat.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace harena_test {

// `buffer[0] = 1.0f`: one use of a buffer.
inline Halide::Internal::Stmt store(const std::string &buffer) {
    using namespace Halide::Internal;
    return Store::make(buffer, 1.0f, 0, harena::Parameter(), Halide::Internal::const_true(), ModulusRemainder());
}

// A heap allocation of `extent` floats around `body`.
inline Halide::Internal::Stmt heap(const std::string &name, const Halide::Expr &extent,
                                   const Halide::Internal::Stmt &body) {
    using namespace Halide::Internal;
    return Allocate::make(name, Halide::Float(32), Halide::MemoryType::Heap, {extent},
                          Halide::Internal::const_true(), body);
}

// The pass's decision on buffer `name`; throws where it reports none.
inline const harena::BufferDecision &decision(const harena::PassReport &r, const std::string &name) {
    for (const auto &b : r.buffers) {
        if (b.name == name) {
            return b;
        }
    }
    throw std::runtime_error("no decision for " + name);
}

// `stages` computed at root and `out` inline, each in 8x8 GPU tiles where the
// target has a GPU.
inline void schedule_chain(const std::vector<Halide::Func> &stages, Halide::Func out, const Halide::Target &target,
                           const Halide::Var &x, const Halide::Var &y) {
    Halide::Var xo, yo, xi, yi;
    for (Halide::Func f : stages) {
        f.compute_root();
        if (target.has_gpu_feature()) {
            f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
        }
    }
    if (target.has_gpu_feature()) {
        out.gpu_tile(x, y, xo, yo, xi, yi, 8, 8);
    }
}

// The pass's options with tracing off.
inline harena::PassOptions quiet() {
    harena::PassOptions o;
    o.trace = 0;
    return o;
}

}  // namespace harena_test
