// A Tuple-valued intermediate: one Func, two planned buffers.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class TupleStage : public Generator<TupleStage> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        minmax(x, y) = Tuple(min(in(x, y), in(x + 1, y)), max(in(x, y), in(x, y + 1)) * k);
        output(x, y) = minmax(x, y)[1] - minmax(x + 1, y + 1)[0];
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        root_stage(minmax, get_target(), x, y);
        output_stage(output, get_target(), x, y);
    }

private:
    Func minmax{"minmax"};
};

HALIDE_REGISTER_GENERATOR(TupleStage, tuple_stage)
