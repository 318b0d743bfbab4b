"""A sharpening filter whose unread Input `arena` is the arena, written as
Halide's Python apps write a generator; halide_arena's planned
create_callable_from_generator builds it in the tests."""
import halide as hl


@hl.generator(name="arena_sharpen")
class ArenaSharpen:
    input = hl.InputBuffer(hl.Float(32), 2)
    arena = hl.InputBuffer(hl.UInt(8), 1)  # the arena: no stage reads it
    output = hl.OutputBuffer(hl.Float(32), 2)

    def generate(self):
        x, y = hl.Var("x"), hl.Var("y")
        bounded = hl.BoundaryConditions.repeat_edge(self.input)
        blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
        third = hl.f32(1.0 / 3.0)
        blur_x[x, y] = (bounded[x - 1, y] + bounded[x, y] + bounded[x + 1, y]) * third
        blur_y[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) * third
        self.output[x, y] = self.input[x, y] + hl.f32(0.75) * (self.input[x, y] - blur_y[x, y])

        self.input.set_estimates([(0, 256), (0, 256)])
        self.output.set_estimates([(0, 256), (0, 256)])
        if self.target().has_gpu_feature():
            xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
            for f in (blur_x, blur_y, self.output):
                f.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 16, 16)
        else:
            for f in (blur_x, blur_y):
                f.compute_root().parallel(y).vectorize(x, 8)
            self.output.parallel(y).vectorize(x, 8)


if __name__ == "__main__":
    import halide_arena
    halide_arena.main()
