// A stage that writes outside its buffer on purpose, for the guard mode tests.
// `written` covers exactly the region `output` reads; its update stores each
// input point shifted by (overshoot_x, overshoot_y) with the index promised
// to stay inside that region (unsafe_promise_clamped), so Halide allocates
// nothing for the shift, as a wrong bound in a real schedule would. With no
// shift the pipeline is correct; (1, 0) moves the last element one element
// past the buffer's end, (0, 1) the last row one row past it, and (0, -1) the
// first row one row before its start. Estimates only, as real generators.
// With in_strips (host), `written` is computed in each of the output's
// parallel strips instead: a buffer of a slot, each task writing its own.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class PlantedOverflow : public Generator<PlantedOverflow> {
public:
    Input<Buffer<float>> input{"input", 2};
    Input<int> overshoot_x{"overshoot_x"};
    Input<int> overshoot_y{"overshoot_y"};
    Output<Buffer<float>> output{"output", 2};
    GeneratorParam<bool> in_strips{"in_strips", false};
    Var x{"x"}, y{"y"};

    void generate() {
        r = RDom(input.dim(0).min(), input.dim(0).extent(), input.dim(1).min(), input.dim(1).extent());
        written(x, y) = 0.0f;
        Expr wx = unsafe_promise_clamped(r.x + overshoot_x, input.dim(0).min(), input.dim(0).max());
        Expr wy = unsafe_promise_clamped(r.y + overshoot_y, input.dim(1).min(), input.dim(1).max());
        written(wx, wy) = input(r.x, r.y) * 2.0f + 1.0f;
        output(x, y) = written(x, y) - 1.0f;
    }

    void schedule() {
        input.set_estimates({{0, 64}, {0, 64}});
        output.set_estimates({{0, 64}, {0, 64}});
        overshoot_x.set_estimate(0);
        overshoot_y.set_estimate(0);
        if (in_strips) {
            Var yo, yi;
            output.split(y, yo, yi, 16, TailStrategy::GuardWithIf).parallel(yo);
            written.compute_at(output, yo);
            return;
        }
        written.compute_root();
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            written.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            // A block per row, a thread per element (rows of at most 1024).
            // The shifted stores are distinct points, but Halide cannot
            // prove it through the promise.
            written.update().allow_race_conditions().gpu_blocks(r.y).gpu_threads(r.x);
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        }
    }

private:
    Func written{"written"};
    RDom r;
};

HALIDE_REGISTER_GENERATOR(PlantedOverflow, planted_overflow)
