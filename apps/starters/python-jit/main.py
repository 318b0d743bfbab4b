"""A pipeline written in Python, planned into one arena and called like any
JIT pipeline: python main.py [cuda]. Needs `pip install halide==21.0.0` and
halide-arena's package (pip install <halide-arena checkout>)."""
import sys

import numpy as np
import halide as hl
import halide_arena

target = hl.get_host_target()
if "cuda" in sys.argv[1:]:
    target = target.with_feature(hl.TargetFeature.CUDA)


def sharpen():
    """An unsharp mask: the input plus the detail a 3x3 blur removes."""
    image = hl.ImageParam(hl.Float(32), 2, "image")
    x, y, xo, yo, xi, yi = hl.vars("x y xo yo xi yi")
    bounded = hl.BoundaryConditions.repeat_edge(image)
    blur_x, blur_y, output = hl.funcs("blur_x blur_y output")
    third = hl.f32(1.0 / 3.0)
    blur_x[x, y] = (bounded[x - 1, y] + bounded[x, y] + bounded[x + 1, y]) * third
    blur_y[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) * third
    output[x, y] = image[x, y] + hl.f32(0.8) * (image[x, y] - blur_y[x, y])
    image.set_estimates([(0, 1024), (0, 768)])
    output.set_estimates([(0, 1024), (0, 768)])
    for f in (blur_x, blur_y, output):
        f.compute_root()
        if target.has_gpu_feature():
            f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16)
        else:
            f.parallel(y).vectorize(x, 8)
    return image, output


# The same pipeline twice: one planned into `arena`, one as Halide runs it.
image, output = sharpen()
plain_image, plain_output = sharpen()
arena = hl.ImageParam(hl.UInt(8), 1, "arena")
plan = halide_arena.plan(output, arena, target)
memory = halide_arena.host_arena(plan.bytes_at_estimates)  # a numpy array aligned as the plan needs; keep it alive
arena.set(hl.Buffer(memory))
print(f"planned {plan.buffers_planned} of {plan.buffers} buffers into {plan.bytes_at_estimates} bytes")

for call, (w, h) in enumerate([(1024, 768), (640, 480), (1024, 768), (333, 217), (1024, 768)]):
    pixels = np.random.default_rng(call).random((h, w), dtype=np.float32)  # numpy is (y, x)
    image.set(hl.Buffer(pixels))
    plain_image.set(hl.Buffer(pixels))
    got, want = hl.Buffer(hl.Float(32), [w, h]), hl.Buffer(hl.Float(32), [w, h])
    plan.pipeline.realize(got, target)  # every intermediate lies in `memory`
    hl.Pipeline(plain_output).realize(want, target)
    got.copy_to_host()
    want.copy_to_host()
    assert np.array_equal(np.asarray(got), np.asarray(want)), f"call {call} differs from the unplanned pipeline"

print(f"5 calls at {target}: bit-identical to the unplanned pipeline")
