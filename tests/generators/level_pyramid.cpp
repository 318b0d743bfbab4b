// A pyramid whose depth is a scalar input, as real generators declare it: an
// estimate for the autoschedulers and no maximum. Level r is the input
// subsampled by 2^r and blurred, computed inside the output's loop over the
// levels, so its buffers shrink with r; `weight` has one entry per level.
// Every size follows the output's extents or `levels`, none of them bounded.
// The output's min is pinned (not bounded): what a level covers depends on
// the min modulo its scale.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class LevelPyramid : public Generator<LevelPyramid> {
public:
    Input<Buffer<float>> input{"input", 2};
    Input<int> levels{"levels"};
    Output<Buffer<float>> output{"output", 2};
    Var x{"x"}, y{"y"}, l{"l"};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        base(x, y) = in(x, y) * 0.5f;
        Func sub("sub");
        sub(x, y, l) = in(x << l, y << l);
        blur_x(x, y, l) = (sub(x - 1, y, l) + 2.0f * sub(x, y, l) + sub(x + 1, y, l)) * 0.25f;
        level(x, y, l) = (blur_x(x, y - 1, l) + 2.0f * blur_x(x, y, l) + blur_x(x, y + 1, l)) * 0.25f;
        weight(l) = 1.0f / cast<float>(l + 2);
        r = RDom(0, levels, "r");
        output(x, y) = base(x, y);
        // Bounds inference bounds a shift only by a provably small amount.
        Expr shift = clamp(r, 0, 15);
        Expr scale = 1 << shift;
        output(x, y) += level(x / scale, y / scale, r) * weight(r);
    }

    void schedule() {
        input.set_estimates({{0, 256}, {0, 256}});
        output.set_estimates({{0, 256}, {0, 256}});
        levels.set_estimate(4);
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
        const bool gpu = get_target().has_gpu_feature();
        root_stage(base, get_target(), x, y);
        weight.compute_root();
        if (gpu) {
            Var lo, li;
            weight.gpu_tile(l, lo, li, 8);
        }
        output.update().reorder(x, y, r);
        for (Func f : {blur_x, level}) {
            f.compute_at(output, r);
            if (gpu) {
                f.gpu_tile(x, y, xo_, yo_, xi_, yi_, 16, 16);
            }
        }
        output_stage(output, get_target(), x, y);
        if (gpu) {
            // Guarded: an update cannot shift its last tile inwards, and sizes
            // below the estimates need not be multiples of the tile.
            output.update().gpu_tile(x, y, xo_, yo_, xi_, yi_, 16, 16, TailStrategy::GuardWithIf);
        }
    }

private:
    Func base{"base"}, blur_x{"blur_x"}, level{"level"}, weight{"weight"};
    RDom r;
    Var xo_, yo_, xi_, yi_;
};

HALIDE_REGISTER_GENERATOR(LevelPyramid, level_pyramid)
