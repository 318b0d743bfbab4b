// Intermediates of several element types (uint8, uint16, double) whose
// planned sizes scale with their element size.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class MixedTypes : public Generator<MixedTypes> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        bytes(x, y) = cast<uint8_t>(clamp(in(x, y) * 255.0f, 0.0f, 255.0f));
        wide(x, y) = cast<uint16_t>(bytes(x, y)) * cast<uint16_t>(k) + cast<uint16_t>(bytes(x + 1, y));
        precise(x, y) = cast<double>(wide(x, y)) / Expr(7.0);
        output(x, y) = cast<float>(precise(x, y) + precise(x, y + 1));
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        for (Func f : {bytes, wide, precise}) {
            root_stage(f, get_target(), x, y);
        }
        output_stage(output, get_target(), x, y);
    }

private:
    Func bytes{"bytes"}, wide{"wide"}, precise{"precise"};
};

HALIDE_REGISTER_GENERATOR(MixedTypes, mixed_types)
