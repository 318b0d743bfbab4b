"""Colour grading as a photo editor applies a preset, written as Halide's
Python apps write a generator: generators/corpus/color_grade.cpp in Python,
with the same names, estimates and schedules, so that both plan alike."""
import halide as hl


@hl.generator(name="color_grade")
class ColorGrade:
    input = hl.InputBuffer(hl.UInt(8), 3)  # sRGB-coded RGB
    contrast = hl.InputScalar(hl.Float(32))  # slope of the curve's S at mid-grey
    gamma = hl.InputScalar(hl.Float(32))
    black = hl.InputScalar(hl.Int(32))  # the code that maps to black
    saturation = hl.InputScalar(hl.Float(32))  # 1 keeps the colours
    output = hl.OutputBuffer(hl.UInt(8), 3)

    def generate(self):
        x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
        curve, lum, local = hl.Func("curve"), hl.Func("lum"), hl.Func("local")

        # The tone curve over the 256 input codes.
        v = hl.clamp((hl.f32(x) - self.black) / (255.0 - self.black), 0.0, 1.0)
        g = hl.pow(v, 1.0 / self.gamma)
        s = g + (self.contrast - 1.0) * g * (1.0 - g) * (g - 0.5) * 4.0
        curve[x] = hl.clamp(s, 0.0, 1.0)

        linear = hl.Func("linear")
        linear[x, y, c] = curve[hl.i32(self.input[x, y, c])]
        lum[x, y] = hl.f32(0.2126) * linear[x, y, 0] + hl.f32(0.7152) * linear[x, y, 1] + hl.f32(0.0722) * linear[x, y, 2]
        # A 3x3 box of luminance: saturation changes around the local grey.
        clamped_lum = hl.BoundaryConditions.repeat_edge(lum, [(0, self.input.width()), (0, self.input.height())])
        local[x, y] = (clamped_lum[x - 1, y - 1] + clamped_lum[x, y - 1] + clamped_lum[x + 1, y - 1] +
                       clamped_lum[x - 1, y] + clamped_lum[x, y] + clamped_lum[x + 1, y] +
                       clamped_lum[x - 1, y + 1] + clamped_lum[x, y + 1] + clamped_lum[x + 1, y + 1]) / 9.0
        graded = local[x, y] + self.saturation * (linear[x, y, c] - local[x, y])
        self.output[x, y, c] = hl.u8_sat(graded * 255.0 + 0.5)

        self.input.set_estimates([(0, 1536), (0, 2560), (0, 3)])
        self.contrast.set_estimate(1.2)
        self.gamma.set_estimate(2.2)
        self.black.set_estimate(8)
        self.saturation.set_estimate(1.1)
        self.output.set_estimates([(0, 1536), (0, 2560), (0, 3)])

        xi, yi = hl.Var("xi"), hl.Var("yi")
        curve.compute_root().bound(x, 0, 256)  # on the CPU in both schedules
        if self.target().has_gpu_feature():
            lum.compute_root().gpu_tile(x, y, xi, yi, 32, 8)
            local.compute_root().gpu_tile(x, y, xi, yi, 32, 8)
            self.output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(x, y, xi, yi, 32, 8)
        else:
            vec = self.natural_vector_size(hl.Float(32))
            curve.vectorize(x, vec)
            lum.compute_root().parallel(y).vectorize(x, vec)
            local.compute_root().parallel(y).vectorize(x, vec)
            self.output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).parallel(y).vectorize(x, vec)


if __name__ == "__main__":
    import halide_arena
    halide_arena.main()
