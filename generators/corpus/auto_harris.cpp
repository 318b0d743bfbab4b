// The Harris corner response of an RGB image: Sobel gradients of the
// luminance, their products summed over 3x3 windows, and
// det(M) - k trace(M)^2. Written for an autoscheduler as Halide's own apps
// are: the algorithm and estimates only, no schedule; the build names the
// autoscheduler.
#include "Halide.h"

namespace {

using namespace Halide;

class AutoHarris : public Generator<AutoHarris> {
public:
    Input<Buffer<float, 3>> input{"input"};
    Input<float> k{"k"};
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Var x("x"), y("y");
        // The edge repeated by clamping each access, so that no boundary
        // stage of its own is left to the autoscheduler.
        auto clamped = [&](Expr px, Expr py, Expr c) {
            return input(clamp(px, input.dim(0).min(), input.dim(0).max()),
                         clamp(py, input.dim(1).min(), input.dim(1).max()), c);
        };
        Func gray("gray"), ix("ix"), iy("iy"), ixx("ixx"), iyy("iyy"), ixy("ixy");
        Func sxx("sxx"), syy("syy"), sxy("sxy");
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);
        ix(x, y) = (gray(x + 1, y - 1) - gray(x - 1, y - 1)) + 2.0f * (gray(x + 1, y) - gray(x - 1, y)) +
                   (gray(x + 1, y + 1) - gray(x - 1, y + 1));
        iy(x, y) = (gray(x - 1, y + 1) - gray(x - 1, y - 1)) + 2.0f * (gray(x, y + 1) - gray(x, y - 1)) +
                   (gray(x + 1, y + 1) - gray(x + 1, y - 1));
        ixx(x, y) = ix(x, y) * ix(x, y);
        iyy(x, y) = iy(x, y) * iy(x, y);
        ixy(x, y) = ix(x, y) * iy(x, y);
        box(sxx, ixx, x, y);
        box(syy, iyy, x, y);
        box(sxy, ixy, x, y);
        Expr det = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y);
        Expr trace = sxx(x, y) + syy(x, y);
        output(x, y) = det - k * trace * trace;

        input.dim(2).set_bounds(0, 3);
        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        k.set_estimate(0.04f);
        output.set_estimates({{0, 1536}, {0, 2560}});
    }

private:
    // sum(x, y) = the 3x3 window of f around (x, y).
    static void box(Func sum, Func f, Var x, Var y) {
        Expr s = 0.0f;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                s += f(x + dx, y + dy);
            }
        }
        sum(x, y) = s;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(AutoHarris, auto_harris)
