"""A long chain of 3x3 stencils on 16-bit data, one stage per step of a
GeneratorParam: generators/corpus/stencil_chain.cpp in Python, with the same
names, estimates and schedules, so that both plan alike."""
import halide as hl


@hl.generator(name="stencil_chain")
class StencilChain:
    stages = hl.GeneratorParam(32)

    input = hl.InputBuffer(hl.UInt(16), 2)
    output = hl.OutputBuffer(hl.UInt(16), 2)

    def generate(self):
        x, y = hl.Var("x"), hl.Var("y")
        chain = []
        prev = hl.BoundaryConditions.repeat_edge(self.input)
        for s in range(int(self.stages)):
            f = hl.Func(f"stage_{s}")
            # Weights that change from stage to stage and sum to 16.
            w = 1 + s % 3
            total = (hl.u32(prev[x, y]) * (16 - 4 * w - 4) +
                     w * (hl.u32(prev[x - 1, y]) + prev[x + 1, y] + prev[x, y - 1] + prev[x, y + 1]) +
                     (hl.u32(prev[x - 1, y - 1]) + prev[x + 1, y - 1] + prev[x - 1, y + 1] + prev[x + 1, y + 1]))
            f[x, y] = hl.u16(total >> 4)
            chain.append(f)
            prev = f
        self.output[x, y] = prev[x, y]

        self.input.set_estimates([(0, 1536), (0, 2560)])
        self.output.set_estimates([(0, 1536), (0, 2560)])

        xi, yi, yo = hl.Var("xi"), hl.Var("yi"), hl.Var("yo")
        n = len(chain)
        if self.target().has_gpu_feature():
            # Stages in pairs: the first of a pair per block, the second stored.
            self.output.compute_root().gpu_tile(x, y, xi, yi, 32, 8)
            for s in range(n - 2, -1, -1):
                stored = (n - 2 - s) % 2 == 1 or s == 0
                if stored:
                    chain[s].compute_root().gpu_tile(x, y, xi, yi, 32, 8)
                else:
                    consumer = self.output if s + 1 == n - 1 else chain[s + 1]
                    chain[s].compute_at(consumer, x).gpu_threads(x, y)
        else:
            # Groups of eight stages: the last of each group stored, the
            # others computed per strip of its rows.
            vec = self.natural_vector_size(hl.UInt(16))
            group = 8
            self.output.compute_root().split(y, yo, yi, 64).parallel(yo).vectorize(x, vec)
            group_out = self.output
            for s in range(n - 2, -1, -1):
                if (n - 1 - s) % group == 0:
                    chain[s].compute_root().split(y, yo, yi, 64).parallel(yo).vectorize(x, vec)
                    group_out = chain[s]
                else:
                    chain[s].compute_at(group_out, yo).vectorize(x, vec)


if __name__ == "__main__":
    import halide_arena
    halide_arena.main()
