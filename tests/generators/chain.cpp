// A chain of stencils: intermediates alive two at a time.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class Chain : public Generator<Chain> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) * k;
        b(x, y) = a(x, y) + a(x + 1, y);
        c(x, y) = b(x, y) + b(x, y + 1);
        output(x, y) = c(x, y) - c(x + 1, y + 1);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        for (Func f : {a, b, c}) {
            root_stage(f, get_target(), x, y);
        }
        output_stage(output, get_target(), x, y);
    }

private:
    Func a{"a"}, b{"b"}, c{"c"};
};

HALIDE_REGISTER_GENERATOR(Chain, chain)
