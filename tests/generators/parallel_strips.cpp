// A CPU schedule as Halide's apps write one: the output in parallel strips
// of rows, stages computed inside each strip (one of them with its own rows
// in parallel, one async), vectorized. Each strip's buffers take a slot of
// the strip loop's pool. On a GPU the strips stay a parallel CPU loop, and
// each stage is a kernel launched inside it: device buffers in slots.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class ParallelStrips : public Generator<ParallelStrips> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = (in(x - 1, y) + in(x, y) * 2.0f + in(x + 1, y)) * 0.25f;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) * 2.0f + blur_x(x, y + 1)) * 0.25f;
        detail(x, y) = in(x, y) - blur_y(x, y) * cast<float>(k) * 0.125f;
        output(x, y) = detail(x, y) + detail(x + 1, y) * 0.5f;
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        Var yo, yi;
        if (get_target().has_gpu_feature()) {
            output.split(y, yo, yi, 64, TailStrategy::GuardWithIf).parallel(yo);
            output_stage(output, get_target(), x, yi);
            for (Func f : {blur_x, blur_y, detail}) {
                f.compute_at(output, yo);
                output_stage(f, get_target(), x, y);
            }
            return;
        }
        // Guarded: the harness also runs outputs narrower than a vector and
        // shorter than a strip.
        output.split(y, yo, yi, 32, TailStrategy::GuardWithIf).parallel(yo).vectorize(x, 8, TailStrategy::GuardWithIf);
        blur_x.compute_at(output, yo).vectorize(x, 8);
        blur_y.compute_at(output, yo).parallel(y).vectorize(x, 8);
        detail.compute_at(output, yo).vectorize(x, 8).async();
    }

private:
    Func blur_x{"blur_x"}, blur_y{"blur_y"}, detail{"detail"};
};

HALIDE_REGISTER_GENERATOR(ParallelStrips, parallel_strips)
