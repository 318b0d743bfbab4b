// Reductions over RDoms: a box of k taps (the reduction domain depends on a
// scalar parameter) and column sums over the input's height.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class Reduction : public Generator<Reduction> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        RDom r(0, k);
        box(x, y) = 0.0f;
        box(x, y) += in(x + r, y);
        RDom ry(0, input.dim(1).extent());
        colsum(x) = 0.0f;
        colsum(x) += in(x, ry + input.dim(1).min());
        output(x, y) = box(x, y) / colsum(x);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        box.compute_root();
        colsum.compute_root();
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            box.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            box.update().gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            colsum.gpu_tile(x, xo, xi, 64);
            colsum.update().gpu_tile(x, xo, xi, 64);
        }
        output_stage(output, get_target(), x, y);
    }

private:
    Func box{"box"}, colsum{"colsum"};
};

HALIDE_REGISTER_GENERATOR(Reduction, reduction)
