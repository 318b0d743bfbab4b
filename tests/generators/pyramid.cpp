// A local-Laplacian-like pyramid: Gaussian and Laplacian pyramids over 8
// levels and a remapped collapse, 30 intermediates whose sizes halve per level.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class Pyramid : public Generator<Pyramid> {
public:
    HARENA_TEST_SIGNATURE;
    static constexpr int J = 8;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        gauss[0](x, y) = in(x, y);
        for (int j = 1; j < J; j++) {
            gauss[j](x, y) = downsample(gauss[j - 1])(x, y);
        }
        Expr alpha = cast<float>(k) / 16.0f;
        for (int j = 0; j < J - 1; j++) {
            Func up = upsample(gauss[j + 1]);
            laplace[j](x, y) = gauss[j](x, y) - up(x, y);
            remapped[j](x, y) = laplace[j](x, y) * (1.0f + alpha * exp(-laplace[j](x, y) * laplace[j](x, y)));
        }
        collapse[J - 1](x, y) = gauss[J - 1](x, y);
        for (int j = J - 2; j >= 0; j--) {
            collapse[j](x, y) = upsample(collapse[j + 1])(x, y) + remapped[j](x, y);
        }
        output(x, y) = collapse[0](x, y);
    }

    void schedule() {
        // Each level's extent depends on the output's min modulo 2^level; with
        // the min pinned the sizes are bounded by the extent alone.
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        for (int j = 0; j < J; j++) {
            root_stage(gauss[j], get_target(), x, y);
            root_stage(collapse[j], get_target(), x, y);
            if (j < J - 1) {
                root_stage(laplace[j], get_target(), x, y);
                root_stage(remapped[j], get_target(), x, y);
            }
        }
        output_stage(output, get_target(), x, y);
    }

private:
    Func gauss[J], laplace[J], remapped[J], collapse[J];

    Func downsample(Func f) {
        Func d;
        d(x, y) = (f(2 * x - 1, 2 * y) + 2.0f * f(2 * x, 2 * y) + f(2 * x + 1, 2 * y) + f(2 * x, 2 * y + 1)) / 5.0f;
        return d;
    }
    Func upsample(Func f) {
        Func u;
        u(x, y) = 0.5f * (f(x / 2, y / 2) + f((x + 1) / 2, (y + 1) / 2));
        return u;
    }
};

HALIDE_REGISTER_GENERATOR(Pyramid, pyramid)
