// Buffers that Halide keeps on host and device: `a` is computed on the GPU
// and read by a CPU stage and a GPU stage, `b` is computed on the CPU and read
// on the GPU (halide_device_and_host_malloc). On the host target they are
// ordinary heap buffers.
#include "common.h"

using namespace Halide;
using namespace harena_generators;

class HostAndDevice : public Generator<HostAndDevice> {
public:
    HARENA_TEST_SIGNATURE;

    void generate() {
        Func in = BoundaryConditions::repeat_edge(input);
        a(x, y) = in(x, y) * k;
        b(x, y) = a(x, y) + a(x + 1, y);
        output(x, y) = a(x, y) + b(x, y + 1);
    }

    void schedule() {
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        a.compute_root();
        b.compute_root();
        if (get_target().has_gpu_feature()) {
            Var xo, yo, xi, yi;
            a.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
            output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        }
    }

private:
    Func a{"a"}, b{"b"};
};

HALIDE_REGISTER_GENERATOR(HostAndDevice, host_and_device)
