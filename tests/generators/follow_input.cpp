// Sizes that follow the caller's buffers, declared only as estimates
// (set_estimates, as real generators do for the autoschedulers): a copy of
// the whole input (its size follows the input's extents), a blur over the
// output's region, and a stage computed per strip of 32 rows of the output,
// whose last strip is shorter.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class FollowInput : public Generator<FollowInput> {
public:
    HARENA_ESTIMATE_SIGNATURE;

    void generate() {
        copy(x, y) = input(x, y) * 1.0f;
        Func edge = BoundaryConditions::repeat_edge(
            copy, {{input.dim(0).min(), input.dim(0).extent()}, {input.dim(1).min(), input.dim(1).extent()}});
        blur_x(x, y) = (edge(x - 1, y) + edge(x, y) + edge(x + 1, y)) / 3.0f;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
        output(x, y) = edge(x, y) + cast<float>(k) * (edge(x, y) - blur_y(x, y)) / 16.0f;
    }

    void schedule() {
        input.set_estimates({{0, 256}, {0, 256}});
        output.set_estimates({{0, 256}, {0, 256}});
        k.set_estimate(4);
        const bool gpu = get_target().has_gpu_feature();
        copy.compute_root().bound(x, input.dim(0).min(), input.dim(0).extent()).bound(y, input.dim(1).min(), input.dim(1).extent());
        root_stage(copy, get_target(), x, y);
        root_stage(blur_x, get_target(), x, y);
        Var yo{"yo"}, yi{"yi"};
        output.split(y, yo, yi, 32, TailStrategy::GuardWithIf);
        blur_y.compute_at(output, yo);
        if (gpu) {
            blur_y.gpu_tile(x, y, xo_, yo_, xi_, yi_, 16, 16);
            output.gpu_tile(x, yi, xo_, yo_, xi_, yi_, 16, 16);
        }
    }

private:
    Func copy{"copy"}, blur_x{"blur_x"}, blur_y{"blur_y"};
    Var xo_, yo_, xi_, yi_;
};

HALIDE_REGISTER_GENERATOR(FollowInput, follow_input)
