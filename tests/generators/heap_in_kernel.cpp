// A stage computed inside each GPU block with its storage on the heap:
// Halide lifts it out of the kernel as one device buffer for all blocks (a
// heap pool), allocated by the host before the launch. On the CPU it is a
// heap allocation inside the serial tile loop, whose guarded tails keep
// outputs narrower than a tile valid. (On the GPU a guarded tail would make the
// per-block size a value computed at run time, which no plan can bound.)
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class HeapInKernel : public Generator<HeapInKernel> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) * k;
        output(x, y) = a(x, y) + a(x + 1, y + 1);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        Var xo, yo, xi, yi;
        if (get_target().has_gpu_feature()) {
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            a.compute_at(output, xo).store_in(MemoryType::Heap).gpu_threads(x, y);
        } else {
            output.tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::GuardWithIf);
            a.compute_at(output, xo).store_in(MemoryType::Heap);
        }
    }

private:
    Func a{"a"};
};

HALIDE_REGISTER_GENERATOR(HeapInKernel, heap_in_kernel)
