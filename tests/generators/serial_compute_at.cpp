// Intermediates computed inside the output's serial row loop: each is
// allocated every iteration and gets the same slice every iteration.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class SerialComputeAt : public Generator<SerialComputeAt> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        row(x, y) = in(x, y) + in(x + 1, y) * k;
        rows(x, y) = row(x, y) + row(x, y + 1) + row(x, y + 2);
        root(x, y) = in(x, y) * 0.5f;
        output(x, y) = rows(x, y) - rows(x + 1, y) + root(x, y);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        root_stage(root, get_target(), x, y);
        if (get_target().has_gpu_feature()) {
            Var yo, yi;
            output.split(y, yo, yi, 16);
            row.compute_at(output, yo).gpu_tile(x, y, xo_, yo_, xi_, yi_, 16, 16);
            rows.compute_at(output, yo).gpu_tile(x, y, xo_, yo_, xi_, yi_, 16, 16);
            output.gpu_tile(x, yi, xo_, yo_, xi_, yi_, 16, 16);
        } else {
            row.compute_at(output, y);
            rows.compute_at(output, y);
        }
    }

private:
    Func row{"row"}, rows{"rows"}, root{"root"};
    Var xo_, yo_, xi_, yi_;
};

HALIDE_REGISTER_GENERATOR(SerialComputeAt, serial_compute_at)
