// specialize(): the same intermediates under two schedules, so allocations of
// the same name appear in both branches of the statement.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class Specialized : public Generator<Specialized> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) * 2.0f + in(x + 1, y);
        b(x, y) = a(x, y) - a(x, y + 1) * k;
        output(x, y) = b(x, y) + b(x + 2, y);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        root_stage(a, get_target(), x, y);
        root_stage(b, get_target(), x, y);
        output_stage(output, get_target(), x, y);
        if (!get_target().has_gpu_feature()) {
            a.specialize(k > 8).vectorize(x, 8);
            b.specialize(k > 8).vectorize(x, 4);
        }
    }

private:
    Func a{"a"}, b{"b"};
};

HALIDE_REGISTER_GENERATOR(Specialized, specialized)
