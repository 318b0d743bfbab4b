// Two outputs computed from shared intermediates.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class MultiOutput : public Generator<MultiOutput> {
public:
    HARENA_TEST_SIGNATURE;
    Output<Buffer<float>> gradient{"gradient", 2};

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        smooth(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) * k;
        dx(x, y) = smooth(x + 1, y) - smooth(x - 1, y);
        output(x, y) = smooth(x, y - 1) + smooth(x, y + 1);
        gradient(x, y) = dx(x, y) * dx(x, y);
    }

    void schedule() {
        // The shared intermediates span both outputs, so their size depends on
        // how far apart the outputs are: pin both to the origin.
        for (int d = 0; d < 2; d++) {
            output.dim(d).set_min(0);
            gradient.dim(d).set_min(0);
        }
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        add_requirement(harena::extent_at_most(gradient, kMaxExtent));
        root_stage(smooth, get_target(), x, y);
        root_stage(dx, get_target(), x, y);
        output_stage(output, get_target(), x, y);
        output_stage(gradient, get_target(), x, y);
    }

private:
    Func smooth{"smooth"}, dx{"dx"};
};

HALIDE_REGISTER_GENERATOR(MultiOutput, multi_output)
