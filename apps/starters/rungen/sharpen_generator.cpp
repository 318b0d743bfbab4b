// A sharpening filter whose arena is its buffer input `arena`: built with
// `FEATURES arena PARAMS harena.argument=arena`, every intermediate lies in
// the caller's `arena` buffer. Estimates only: each call plans its own sizes.
#include "Halide.h"

using namespace Halide;

class Sharpen : public Generator<Sharpen> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Input<Buffer<uint8_t, 1>> arena{"arena"};  // the arena: no stage reads it
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
        output(x, y) = 2.0f * input(x, y) - blur_y(x, y);
    }

    void schedule() {
        input.set_estimates({{0, 1024}, {0, 768}});
        output.set_estimates({{0, 1024}, {0, 768}});
        blur_x.compute_root();
        blur_y.compute_root();
        Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
        for (Func f : {blur_x, blur_y, Func(output)}) {
            if (get_target().has_gpu_feature()) {
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            } else {
                f.vectorize(x, 8).parallel(y);
            }
        }
    }

private:
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"}, blur_y{"blur_y"};
};

HALIDE_REGISTER_GENERATOR(Sharpen, sharpen)
