// A sharpening filter compiled in the process and planned into the
// ImageParam `arena` (harena/jit.h), its result checked against the same
// pipeline unplanned; pass `cuda` to run it on the GPU.
#include "harena/jit.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace Halide;

// The filter reading `input`, scheduled for `target`.
Pipeline sharpen(ImageParam input, const Target &target) {
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
    return Pipeline(output);
}

int main(int argc, char **argv) {
    Target target = get_host_target();
    if (argc > 1 && std::string(argv[1]) == "cuda") {
        target = target.with_feature(Target::CUDA);
    }
    ImageParam input(Float(32), 2, "input");
    ImageParam arena(UInt(8), 1, "arena");  // the arena: no stage reads it
    Pipeline pipeline = sharpen(input, target);
    harena::plan_into_argument(pipeline, arena, target);

    Buffer<float> image(1536, 1024), result(1536, 1024), expected(1536, 1024);
    image.for_each_element([&](int x, int y) { image(x, y) = float((x * 13 + y * 7) % 256) / 255.0f; });
    input.set(image);
    // Halide's bounds inference sizes the arena for this call: the unbound
    // ImageParam is bound to a buffer of the bytes the call needs.
    pipeline.infer_input_bounds(result, target);
    const int bytes = arena.get().dim(0).extent();
    for (int call = 0; call < 3; call++) {
        pipeline.realize(result, target);  // intermediates lie in the arena
    }
    result.copy_to_host();

    sharpen(input, target).realize(expected, target);  // the same filter, unplanned
    expected.copy_to_host();
    const bool same = std::memcmp(result.data(), expected.data(), result.size_in_bytes()) == 0;
    std::printf("sharpen (JIT, %s): arena of %d bytes, %s the unplanned pipeline's output\n",
                target.to_string().c_str(), bytes, same ? "identical to" : "DIFFERENT from");
    return same ? 0 : 1;
}
