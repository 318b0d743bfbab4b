// An unsharp mask written as Halide's own apps are (estimates only, a CUDA
// schedule and a host schedule), whose arena is its last buffer input: built
// with `PARAMS harena.argument=arena` and FEATURES arena, every intermediate
// lies in the caller's `arena` buffer, and user_context stays the caller's.
// Built without the option (the arena in user_context) or without the
// feature (unplanned), `arena` is an unused input.
#include "Halide.h"

using namespace Halide;

class Unsharp : public Generator<Unsharp> {
public:
    GeneratorParam<float> sigma{"sigma", 1.5f};

    Input<Buffer<float, 3>> input{"input"};
    Input<Buffer<uint8_t, 1>> arena{"arena"};
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        const float kPi = 3.14159265358979310000f;
        Func kernel("kernel");
        kernel(x) = exp(-x * x / (2 * sigma * sigma)) / (sqrtf(2 * kPi) * sigma);

        Func in_bounded = BoundaryConditions::repeat_edge(input);
        gray(x, y) = 0.299f * in_bounded(x, y, 0) + 0.587f * in_bounded(x, y, 1) + 0.114f * in_bounded(x, y, 2);
        blur_y(x, y) = (kernel(0) * gray(x, y) + kernel(1) * (gray(x, y - 1) + gray(x, y + 1)) +
                        kernel(2) * (gray(x, y - 2) + gray(x, y + 2)) + kernel(3) * (gray(x, y - 3) + gray(x, y + 3)));
        blur_x(x, y) = (kernel(0) * blur_y(x, y) + kernel(1) * (blur_y(x - 1, y) + blur_y(x + 1, y)) +
                        kernel(2) * (blur_y(x - 2, y) + blur_y(x + 2, y)) +
                        kernel(3) * (blur_y(x - 3, y) + blur_y(x + 3, y)));
        sharpen(x, y) = 2 * gray(x, y) - blur_x(x, y);
        ratio(x, y) = sharpen(x, y) / max(gray(x, y), 1e-3f);
        output(x, y, c) = ratio(x, y) * input(x, y, c);
    }

    void schedule() {
        input.set_estimates({{0, 256}, {0, 192}, {0, 3}});
        output.set_estimates({{0, 256}, {0, 192}, {0, 3}});
        Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
        for (Func f : {gray, blur_y, blur_x, ratio}) {
            f.compute_root();
            if (get_target().has_gpu_feature()) {
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            } else {
                f.vectorize(x, 8);
            }
        }
        if (get_target().has_gpu_feature()) {
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        } else {
            output.reorder(c, x, y).vectorize(x, 8);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func gray{"gray"}, blur_y{"blur_y"}, blur_x{"blur_x"}, sharpen{"sharpen"}, ratio{"ratio"};
};

HALIDE_REGISTER_GENERATOR(Unsharp, unsharp)
