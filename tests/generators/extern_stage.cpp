// An extern stage between two Halide stages: the intermediates it reads and
// writes are passed to C as halide_buffer_t (see harena_test_extern_scale).
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class ExternStage : public Generator<ExternStage> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) + in(x + 1, y + 1);
        scaled.define_extern("harena_test_extern_scale", {a, k}, Float(32), 2);
        output(x, y) = scaled(x, y) * 0.25f + a(x, y);
    }

    void schedule() {
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        // The extern stage's bounds query decides at run time which region of
        // `a` it reads; fixed bounds make a's size known when planning.
        a.compute_root().bound(x, 0, kMaxExtent).bound(y, 0, kMaxExtent);
        scaled.compute_root()
            .bound(scaled.args()[0], 0, kMaxExtent)
            .bound(scaled.args()[1], 0, kMaxExtent);
    }

private:
    Func a{"a"}, scaled{"scaled"};
};

HALIDE_REGISTER_GENERATOR(ExternStage, extern_stage)
