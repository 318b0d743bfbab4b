// A thumbnail as image apps make one: a box blur computed at the root, then
// every fifth pixel of it, its size following the caller's output buffer and
// declared with estimates only; `k` scales the brightness. On the CPU every
// stage is vectorized, so the decimation reads the blur with a stride of 5:
// Halide 21 turns that read into dense loads that reach four elements past
// the blur's end and pads the blur's heap allocation by as many.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class Thumbnail : public Generator<Thumbnail> {
public:
    HARENA_ESTIMATE_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3.0f;
        blur(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
        output(x, y) = blur(5 * x, 5 * y) * (cast<float>(k) / 4.0f);
    }

    void schedule() {
        input.set_estimates({{0, 256}, {0, 256}});
        output.set_estimates({{0, 256}, {0, 256}});
        k.set_estimate(4);
        if (get_target().has_gpu_feature()) {
            root_stage(blur_x, get_target(), x, y);
            root_stage(blur, get_target(), x, y);
            output_stage(output, get_target(), x, y);
        } else {
            blur_x.compute_root().vectorize(x, 8);
            blur.compute_root().vectorize(x, 8);
            output.vectorize(x, 8);
        }
    }

private:
    Func blur_x{"blur_x"}, blur{"blur"};
};

HALIDE_REGISTER_GENERATOR(Thumbnail, thumbnail)
