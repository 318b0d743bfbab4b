#include "Halide.h"
#include "harena/bounds.h"

using namespace Halide;

class Blur : public Generator<Blur> {
public:
    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};
    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
        output(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
    }
    void schedule() {
        add_requirement(harena::extent_at_most(output, 256));
        blur_x.compute_root();
    }

private:
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"};
};

HALIDE_REGISTER_GENERATOR(Blur, blur)
