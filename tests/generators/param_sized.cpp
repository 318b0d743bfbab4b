// Intermediate sizes that depend on a scalar parameter: k*8 channels per
// pixel, bounded by k's declared maximum (the variable-k pattern).
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class ParamSized : public Generator<ParamSized> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        Var c{"c"};
        features(c, x, y) = in(x, y) * cast<float>(c + 1);
        RDom r(0, k * 8);
        pooled(x, y) = 0.0f;
        pooled(x, y) += features(r, x, y);
        output(x, y) = pooled(x, y) / cast<float>(k);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        features.compute_root().bound_extent(features.args()[0], 128);
        pooled.compute_root();
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            features.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            pooled.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            pooled.update().gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        }
        output_stage(output, get_target(), x, y);
    }

private:
    Func features{"features"}, pooled{"pooled"};
};

HALIDE_REGISTER_GENERATOR(ParamSized, param_sized)
