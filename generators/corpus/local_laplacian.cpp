// A local Laplacian filter (Paris, Hasinoff and Kautz), written the way
// Halide's apps are: the pyramid depth is a GeneratorParam, the number of
// intensity levels a runtime scalar. Every level of the processed Gaussian
// and Laplacian pyramids holds one plane per intensity level, so their sizes
// hang on `levels` as well as on the image size.
#include "Halide.h"

namespace {

using namespace Halide;

constexpr int kMaxPyramidLevels = 12;

class LocalLaplacian : public Generator<LocalLaplacian> {
public:
    GeneratorParam<int> pyramid_levels{"pyramid_levels", 8, 2, kMaxPyramidLevels};

    Input<Buffer<uint16_t, 3>> input{"input"};
    Input<int> levels{"levels"};  // intensity levels, at least 2
    Input<float> alpha{"alpha"};  // detail boost
    Input<float> beta{"beta"};    // tone compression
    Output<Buffer<uint16_t, 3>> output{"output"};

    // The stages are built in this order, which also fixes the names Halide
    // gives the unnamed Funcs they create.
    void generate() {
        name_pyramids();
        remap_table();
        Func floating = to_gray();
        Expr last = levels - 1;
        processed_pyramid(last);
        Func laplace[kMaxPyramidLevels];
        laplacian_of_processed(laplace);
        gray_pyramid();
        Func out_laplace[kMaxPyramidLevels];
        blend_levels(last, laplace, out_laplace);
        collapse(out_laplace);
        restore_color(floating);
        declare_estimates();
    }

    void schedule() {
        const int J = pyramid_levels;
        Var xi("xi"), yi("yi"), yo("yo");
        if (get_target().has_gpu_feature()) {
            remap.compute_root().gpu_tile(x, xi, 64);
            output.compute_root().reorder(c, x, y).gpu_tile(x, y, xi, yi, 16, 8);
            for (int j = 0; j < J; j++) {
                // Coarse levels are tiny: small blocks keep every SM busy.
                const int bw = j > 3 ? 4 : 16, bh = j > 3 ? 4 : 8;
                if (j > 0) {
                    in_gauss[j].compute_root().gpu_tile(x, y, xi, yi, bw, bh);
                    processed[j].compute_root().reorder(k, x, y).gpu_tile(x, y, xi, yi, bw, bh);
                }
                out_gauss[j].compute_root().gpu_tile(x, y, xi, yi, bw, bh);
            }
        } else {
            const int vec = natural_vector_size<float>();
            remap.compute_root().vectorize(x, vec);
            output.reorder(c, x, y).split(y, yo, y, 32).parallel(yo).vectorize(x, vec);
            gray.compute_root().parallel(y, 16).vectorize(x, vec);
            for (int j = 1; j < J; j++) {
                in_gauss[j].compute_root().parallel(y, 16).vectorize(x, vec);
                processed[j].compute_root().reorder_storage(x, k, y).reorder(k, y).parallel(y, 8).vectorize(x, vec);
            }
            // The finest collapsed levels are produced per strip of the
            // output, the coarse ones once.
            for (int j = 0; j < J; j++) {
                if (j < 3) {
                    out_gauss[j].store_at(output, yo).compute_at(output, y).vectorize(x, vec);
                } else {
                    out_gauss[j].compute_root().parallel(y, 8).vectorize(x, vec);
                }
            }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, k{"k"};
    Func remap{"remap"}, gray{"gray"};
    Func processed[kMaxPyramidLevels], in_gauss[kMaxPyramidLevels], out_gauss[kMaxPyramidLevels];

    void name_pyramids() {
        const int J = pyramid_levels;
        for (int j = 0; j < J; j++) {
            processed[j] = Func("processed_" + std::to_string(j));
            in_gauss[j] = Func("in_gauss_" + std::to_string(j));
            out_gauss[j] = Func("out_gauss_" + std::to_string(j));
        }
    }

    // The detail-remapping curve as a table: 256 entries per intensity level.
    void remap_table() {
        Expr d = cast<float>(x) / 256.0f;
        remap(x) = alpha * d * exp(-d * d / 2.0f);
    }

    // The input in [0, 1] (returned) and its luminance (gray).
    Func to_gray() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func floating("floating");
        floating(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.0f;
        gray(x, y) = 0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);
        return floating;
    }

    // One processed copy of the image per intensity level k, and its
    // Gaussian pyramid.
    void processed_pyramid(const Expr &last) {
        Expr level = cast<float>(k) / cast<float>(last);
        Expr index = clamp(cast<int>(gray(x, y) * cast<float>(last) * 256.0f), 0, last * 256);
        processed[0](x, y, k) = beta * (gray(x, y) - level) + level + remap(index - 256 * k);
        const int J = pyramid_levels;
        for (int j = 1; j < J; j++) {
            processed[j](x, y, k) = downsample(processed[j - 1])(x, y, k);
        }
    }

    // The Laplacian pyramid of the processed copies.
    void laplacian_of_processed(Func *laplace) {
        const int J = pyramid_levels;
        laplace[J - 1](x, y, k) = processed[J - 1](x, y, k);
        for (int j = 0; j < J - 1; j++) {
            laplace[j](x, y, k) = processed[j](x, y, k) - upsample(processed[j + 1])(x, y, k);
        }
    }

    // The input's own Gaussian pyramid.
    void gray_pyramid() {
        in_gauss[0](x, y) = gray(x, y);
        const int J = pyramid_levels;
        for (int j = 1; j < J; j++) {
            in_gauss[j](x, y) = downsample(in_gauss[j - 1])(x, y);
        }
    }

    // Per pixel and level, the input's Gaussian pyramid picks which two
    // processed Laplacian planes to blend.
    void blend_levels(const Expr &last, const Func *laplace, Func *out_laplace) {
        const int J = pyramid_levels;
        for (int j = 0; j < J; j++) {
            Expr position = in_gauss[j](x, y) * cast<float>(last);
            Expr lower = clamp(cast<int>(position), 0, levels - 2);
            Expr t = position - cast<float>(lower);
            out_laplace[j](x, y) = (1.0f - t) * laplace[j](x, y, lower) + t * laplace[j](x, y, lower + 1);
        }
    }

    // Collapses the blended Laplacian pyramid into out_gauss.
    void collapse(const Func *out_laplace) {
        const int J = pyramid_levels;
        out_gauss[J - 1](x, y) = out_laplace[J - 1](x, y);
        for (int j = J - 2; j >= 0; j--) {
            out_gauss[j](x, y) = upsample(out_gauss[j + 1])(x, y) + out_laplace[j](x, y);
        }
    }

    // Puts the colour back and returns to 16 bits.
    void restore_color(Func floating) {
        const float eps = 0.01f;
        Expr color = out_gauss[0](x, y) * (floating(x, y, c) + eps) / (gray(x, y) + eps);
        output(x, y, c) = cast<uint16_t>(clamp(color, 0.0f, 1.0f) * 65535.0f);
    }

    void declare_estimates() {
        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        levels.set_estimate(8);
        alpha.set_estimate(1.0f);
        beta.set_estimate(1.0f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    // Burt and Adelson's [1 4 6 4 1] / 16 kernel with stride 2, separable.
    Func downsample(Func f) {
        using Halide::_;
        auto taps = [](Expr a, Expr b, Expr c, Expr d, Expr e) { return (a + e + 4.0f * (b + d) + 6.0f * c) / 16.0f; };
        Func dx, dy;
        dx(x, y, _) = taps(f(2 * x - 2, y, _), f(2 * x - 1, y, _), f(2 * x, y, _),
                           f(2 * x + 1, y, _), f(2 * x + 2, y, _));
        dy(x, y, _) = taps(dx(x, 2 * y - 2, _), dx(x, 2 * y - 1, _), dx(x, 2 * y, _),
                           dx(x, 2 * y + 1, _), dx(x, 2 * y + 2, _));
        return dy;
    }

    // Bilinear: 3/4 of the nearest coarse sample, 1/4 of the next nearest.
    Func upsample(Func f) {
        using Halide::_;
        Func ux, uy;
        ux(x, y, _) = 0.75f * f(x / 2, y, _) + 0.25f * f(x / 2 + 2 * (x % 2) - 1, y, _);
        uy(x, y, _) = 0.75f * ux(x, y / 2, _) + 0.25f * ux(x, y / 2 + 2 * (y % 2) - 1, _);
        return uy;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(LocalLaplacian, local_laplacian)
