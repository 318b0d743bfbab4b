"""Pipelines written in Python as Halide's Python tutorials and apps write
them, each built twice by the tests (planned and not): a detail-enhancing
filter of separable blurs, and a box blur whose radius is a scalar input,
its horizontal pass computed per strip inside a parallel loop."""
import halide as hl


class DetailFilter:
    """Gray, a separable blur of it, and the detail it removed added back."""

    def __init__(self, target):
        self.input = hl.ImageParam(hl.Float(32), 3, "input")
        x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
        xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
        bounded = hl.BoundaryConditions.repeat_edge(self.input)
        gray, blur_x, blur_y, detail = hl.Func("gray"), hl.Func("blur_x"), hl.Func("blur_y"), hl.Func("detail")
        self.output = hl.Func("output")
        quarter, half = hl.f32(0.25), hl.f32(0.5)
        gray[x, y] = quarter * bounded[x, y, 0] + half * bounded[x, y, 1] + quarter * bounded[x, y, 2]
        blur_x[x, y] = (gray[x - 1, y] + 2 * gray[x, y] + gray[x + 1, y]) * quarter
        blur_y[x, y] = (blur_x[x, y - 1] + 2 * blur_x[x, y] + blur_x[x, y + 1]) * quarter
        detail[x, y] = gray[x, y] - blur_y[x, y]
        self.output[x, y, c] = self.input[x, y, c] + hl.f32(1.5) * detail[x, y]

        self.input.set_estimates([(0, 320), (0, 240), (0, 3)])
        self.output.set_estimates([(0, 320), (0, 240), (0, 3)])
        for f in (gray, blur_x, blur_y, detail):
            f.compute_root()
            if target.has_gpu_feature():
                f.gpu_tile(x, y, xo, yo, xi, yi, 16, 16)
            else:
                f.vectorize(x, 8).parallel(y)
        if target.has_gpu_feature():
            self.output.gpu_tile(x, y, xo, yo, xi, yi, 16, 16)
        else:
            self.output.reorder(c, x, y).vectorize(x, 8).parallel(y)

    def bind(self, image):
        """Sets the input from a numpy array of shape (3, height, width)."""
        self.input.set(hl.Buffer(image))


class RadiusBlur:
    """A box blur of a 16-bit image whose radius is a scalar input."""

    def __init__(self, target):
        self.input = hl.ImageParam(hl.UInt(16), 2, "input")
        self.radius = hl.Param(hl.Int(32), "radius", 2)
        x, y, yo, yi = hl.Var("x"), hl.Var("y"), hl.Var("yo"), hl.Var("yi")
        bounded = hl.BoundaryConditions.mirror_interior(self.input)
        r = hl.RDom([(-self.radius, 2 * self.radius + 1)], "r")
        blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
        self.output = hl.Func("output")
        blur_x[x, y] = hl.u32(0)
        blur_x[x, y] += hl.u32(bounded[x + r.x, y])
        blur_y[x, y] = hl.u32(0)
        blur_y[x, y] += blur_x[x, y + r.x]
        self.output[x, y] = hl.u16(blur_y[x, y] / hl.u32(2 * self.radius + 1) / hl.u32(2 * self.radius + 1))

        self.input.set_estimates([(0, 256), (0, 192)])
        self.radius.set_estimate(2)
        self.output.set_estimates([(0, 256), (0, 192)])
        if target.has_gpu_feature():
            xo, xi, yo2, yi2 = hl.Var("xo"), hl.Var("xi"), hl.Var("yo2"), hl.Var("yi2")
            blur_x.compute_root().gpu_tile(x, y, xo, yo2, xi, yi2, 16, 16)
            blur_x.update().gpu_tile(x, y, xo, yo2, xi, yi2, 16, 16)
            blur_y.compute_root().gpu_tile(x, y, xo, yo2, xi, yi2, 16, 16)
            blur_y.update().gpu_tile(x, y, xo, yo2, xi, yi2, 16, 16)
            self.output.gpu_tile(x, y, xo, yo2, xi, yi2, 16, 16)
        else:
            self.output.split(y, yo, yi, 32).parallel(yo).vectorize(x, 8)
            for f in (blur_y, blur_x):
                f.compute_at(self.output, yo).vectorize(x, 8)
                f.update().vectorize(x, 8)

    def bind(self, image, radius):
        """Sets the input from a numpy array of shape (height, width)."""
        self.bind_buffer(hl.Buffer(image), radius)

    def bind_buffer(self, buffer, radius):
        self.input.set(buffer)
        self.radius.set(radius)
