#pragma once
// What the test generators share: one signature, so that one harness runs
// them all (input 2-D float, scalar k in [1, 16], output 2-D float of at most
// kMaxExtent per dimension), and a schedule that puts a stage on the GPU when
// the target has one and at the root on the CPU otherwise.
#include "Halide.h"
#include "harena/bounds.h"

namespace harena_generators {

constexpr int kMaxExtent = 512;

inline void root_stage(Halide::Func f, const Halide::Target &t, const Halide::Var &x, const Halide::Var &y) {
    f.compute_root();
    if (t.has_gpu_feature()) {
        Halide::Var xo, yo, xi, yi;
        f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
    }
}

inline void output_stage(Halide::Func f, const Halide::Target &t, const Halide::Var &x, const Halide::Var &y) {
    if (t.has_gpu_feature()) {
        Halide::Var xo, yo, xi, yi;
        f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
    }
}

}  // namespace harena_generators

#define HARENA_TEST_SIGNATURE                  \
    Input<Buffer<float>> input{"input", 2};    \
    Input<int> k{"k", 4, 1, 16};               \
    Output<Buffer<float>> output{"output", 2}; \
    Var x{"x"}, y {                            \
        "y"                                    \
    }

// The same signature for generators that declare estimates only: k has no
// bounds (its estimate is set in the schedule).
#define HARENA_ESTIMATE_SIGNATURE              \
    Input<Buffer<float>> input{"input", 2};    \
    Input<int> k{"k"};                         \
    Output<Buffer<float>> output{"output", 2}; \
    Var x{"x"}, y {                            \
        "y"                                    \
    }
