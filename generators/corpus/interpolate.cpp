// Multi-scale interpolation (push-pull): an RGBA image whose alpha marks the
// known pixels is downsampled level by level with alpha-premultiplied
// colours, then upsampled back, each level filling its holes from the
// coarser one, and finally divided by alpha. Each level is a downsample in
// x then y, or an upsample in x then y: two chains of small stages.
#include "Halide.h"

namespace {

using namespace Halide;

class Interpolate : public Generator<Interpolate> {
public:
    GeneratorParam<int> levels{"levels", 8, 2, 16};

    Input<Buffer<float, 3>> input{"input"};  // x, y, RGBA
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        const int L = levels;
        down.resize(L);
        interp.resize(L);
        std::vector<Func> down_x(L), up(L), up_x(L);
        for (int l = 0; l < L; l++) {
            down[l] = Func("down_" + std::to_string(l));
            interp[l] = Func("interp_" + std::to_string(l));
            down_x[l] = Func("down_x_" + std::to_string(l));
            up[l] = Func("up_" + std::to_string(l));
            up_x[l] = Func("up_x_" + std::to_string(l));
        }

        Func clamped = BoundaryConditions::repeat_edge(input);
        Expr a = clamped(x, y, 3);
        down[0](x, y, c) = select(c < 3, clamped(x, y, c) * a, a);
        for (int l = 1; l < L; l++) {
            Func prev = down[l - 1];
            down_x[l](x, y, c) = 0.25f * (prev(2 * x - 1, y, c) + 2.0f * prev(2 * x, y, c) + prev(2 * x + 1, y, c));
            down[l](x, y, c) =
                0.25f * (down_x[l](x, 2 * y - 1, c) + 2.0f * down_x[l](x, 2 * y, c) + down_x[l](x, 2 * y + 1, c));
        }

        interp[L - 1](x, y, c) = down[L - 1](x, y, c);
        for (int l = L - 2; l >= 0; l--) {
            up_x[l](x, y, c) = 0.5f * (interp[l + 1](x / 2, y, c) + interp[l + 1]((x + 1) / 2, y, c));
            up[l](x, y, c) = 0.5f * (up_x[l](x, y / 2, c) + up_x[l](x, (y + 1) / 2, c));
            // Where this level is transparent, the coarser level shows through.
            interp[l](x, y, c) = down[l](x, y, c) + (1.0f - down[l](x, y, 3)) * up[l](x, y, c);
        }

        output(x, y, c) = interp[0](x, y, c) / interp[0](x, y, 3);

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 4}});
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        const int L = levels;
        output.bound(c, 0, 3);
        Var xi("xi"), yi("yi"), yo("yo");
        if (get_target().has_gpu_feature()) {
            output.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
            for (int l = 1; l < L; l++) {
                down[l].compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 16, 16);
            }
            // Every other level of the upward chain is stored; the others
            // are recomputed by their consumer.
            for (int l = 1; l < L; l += 2) {
                interp[l].compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 16, 16);
            }
        } else {
            const int vec = natural_vector_size<float>();
            for (int l = 1; l < L; l++) {
                down[l].compute_root().reorder(x, c, y).parallel(y, 8).vectorize(x, vec);
            }
            output.reorder(c, x, y).split(y, yo, yi, 32).parallel(yo).unroll(c).vectorize(x, vec);
            // The fine levels of the upward chain per strip of rows, the
            // coarse ones once.
            for (int l = 1; l < L; l++) {
                if (l < 4) {
                    interp[l].store_at(output, yo).compute_at(output, yi).vectorize(x, vec);
                } else {
                    interp[l].compute_root().parallel(y, 8).vectorize(x, vec);
                }
            }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    std::vector<Func> down, interp;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(Interpolate, interpolate)
