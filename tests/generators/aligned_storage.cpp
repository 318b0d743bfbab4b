// align_storage() pads the row stride: sizes must come from the buffer's
// shape, not from the extents.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class AlignedStorage : public Generator<AlignedStorage> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) * k;
        output(x, y) = a(x, y) + a(x + 3, y + 1);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        root_stage(a, get_target(), x, y);
        a.align_storage(x, 32);
        output_stage(output, get_target(), x, y);
    }

private:
    Func a{"a"};
};

HALIDE_REGISTER_GENERATOR(AlignedStorage, aligned_storage)
