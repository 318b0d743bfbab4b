// Unsharp masking of a grayscale image: a 7-tap Gaussian blur, and the
// difference from it added back, scaled. Written for an autoscheduler as
// Halide's own apps are: the algorithm and estimates only, no schedule; the
// build names the autoscheduler.
#include "Halide.h"

namespace {

using namespace Halide;

class AutoUnsharp : public Generator<AutoUnsharp> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Input<float> amount{"amount"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        // The edge repeated by clamping each access, so that no boundary
        // stage of its own is left to the autoscheduler.
        auto clamped = [&](Expr px, Expr py) {
            return input(clamp(px, input.dim(0).min(), input.dim(0).max()),
                         clamp(py, input.dim(1).min(), input.dim(1).max()));
        };
        Func blur_y("blur_y"), blur_x("blur_x");
        const float weights[] = {0.03125f, 0.109375f, 0.21875f, 0.28125f, 0.21875f, 0.109375f, 0.03125f};
        Expr by = 0.0f, bx = 0.0f;
        for (int i = 0; i < 7; i++) {
            by += weights[i] * clamped(x, y + i - 3);
        }
        blur_y(x, y) = by;
        for (int i = 0; i < 7; i++) {
            bx += weights[i] * blur_y(x + i - 3, y);
        }
        blur_x(x, y) = bx;
        output(x, y) = clamp(input(x, y) + amount * (input(x, y) - blur_x(x, y)), 0.0f, 1.0f);

        input.set_estimates({{0, 1536}, {0, 2560}});
        amount.set_estimate(1.0f);
        output.set_estimates({{0, 1536}, {0, 2560}});
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(AutoUnsharp, auto_unsharp)
