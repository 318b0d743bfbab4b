// A sharpening filter compiled in the process and planned into the
// ImageParam `arena` (harena/jit.h); pass `cuda` to run it on the GPU.
#include "harena/jit.h"

#include <cstdio>
#include <string>

using namespace Halide;

int main(int argc, char **argv) {
    Target target = get_host_target();
    if (argc > 1 && std::string(argv[1]) == "cuda") {
        target = target.with_feature(Target::CUDA);
    }
    ImageParam input(Float(32), 2, "input");
    ImageParam arena(UInt(8), 1, "arena");  // the arena: no stage reads it
    Var x("x"), y("y"), xo, yo, xi, yi;
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func blur_x("blur_x"), blur_y("blur_y"), output("output");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3.0f;
    output(x, y) = 2.0f * input(x, y) - blur_y(x, y);
    input.set_estimates({{0, 1024}, {0, 768}});
    output.set_estimates({{0, 1024}, {0, 768}});
    blur_x.compute_root();
    blur_y.compute_root();
    for (Func f : {blur_x, blur_y, output}) {
        if (target.has_gpu_feature()) {
            f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16);
        } else {
            f.vectorize(x, 8).parallel(y);
        }
    }

    Pipeline pipeline(output);
    harena::ArgumentPlan plan = harena::plan_into_argument(pipeline, arena, target);
    Buffer<uint8_t> memory(static_cast<int>(plan.bytes_at_estimates));
    arena.set(memory);

    Buffer<float> image(1024, 768), result(1024, 768);
    image.fill(0.5f);
    input.set(image);
    for (int call = 0; call < 3; call++) {
        pipeline.realize(result, target);  // intermediates lie in `memory`
    }
    result.copy_to_host();
    std::printf("sharpen (JIT, %s): arena of %llu bytes, result(10, 10) = %g\n", target.to_string().c_str(),
                static_cast<unsigned long long>(plan.bytes_at_estimates), result(10, 10));
    return result(10, 10) == 0.5f ? 0 : 1;
}
