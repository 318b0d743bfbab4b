// A camera pipeline from a 10-bit GRBG Bayer mosaic to 8-bit RGB: hot-pixel
// suppression, deinterleaving into four quarter-resolution planes, bilinear
// demosaicking, a 3x4 colour matrix given as an input buffer, a tone curve
// computed by the pipeline as a 1024-entry lookup table, and a sharpening.
#include "Halide.h"

namespace {

using namespace Halide;
using namespace Halide::ConciseCasts;

class CameraPipe : public Generator<CameraPipe> {
public:
    Input<Buffer<uint16_t, 2>> input{"input"};  // raw, GRBG, 10 bits
    Input<Buffer<float, 2>> matrix{"matrix"};   // 4 columns (R, G, B, offset) x 3 rows
    Input<float> gamma{"gamma"};
    Input<float> contrast{"contrast"};
    Input<int> black_level{"black_level"};
    Input<int> white_level{"white_level"};
    Input<float> sharpen_strength{"sharpen_strength"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    // The stages are built in this order, which also fixes the names Halide
    // gives the unnamed Funcs they create.
    void generate() {
        suppress_hot_pixels();
        Func rgb = demosaic();
        correct_color(rgb);
        tone_map();
        sharpen();
        declare_estimates();
    }

    void schedule() {
        output.bound(c, 0, 3);
        Var xi("xi"), yi("yi"), yo("yo");
        if (get_target().has_gpu_feature()) {
            curve.compute_root().gpu_tile(x, xi, 64);
            denoised.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            demosaiced.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 16, 8);
            output.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
            // The tone-mapped image is needed with a one-pixel margin per
            // block: computed per block in shared memory.
            curved.compute_at(output, x).reorder(c, x, y).unroll(c).gpu_threads(x, y);
        } else {
            const int vec = natural_vector_size<float>();
            curve.compute_root().vectorize(x, vec);
            output.compute_root().reorder(c, x, y).split(y, yo, yi, 32).parallel(yo).vectorize(x, vec).unroll(c);
            denoised.compute_at(output, yo).vectorize(x, vec);
            demosaiced.compute_at(output, yo).reorder(c, x, y).unroll(c).vectorize(x, vec);
            curved.store_at(output, yo).compute_at(output, yi).reorder(c, x, y).unroll(c).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func denoised{"denoised"}, planes{"planes"}, demosaiced{"demosaiced"}, corrected{"corrected"};
    Func curve{"curve"}, curved{"curved"};

    // A pixel brighter than all four same-colour neighbours is clamped to
    // their maximum (denoised).
    void suppress_hot_pixels() {
        // mirror_interior keeps every pixel's Bayer colour beyond the edges.
        Func raw = BoundaryConditions::mirror_interior(input);
        Func raw_i("raw_i");
        raw_i(x, y) = i16(raw(x, y));
        Expr brightest = max(max(raw_i(x - 2, y), raw_i(x + 2, y)), max(raw_i(x, y - 2), raw_i(x, y + 2)));
        denoised(x, y) = clamp(raw_i(x, y), 0, brightest);
    }

    // Bilinear demosaic of the denoised mosaic: every colour at every pixel
    // (returned), through the colours at every position of a plane
    // (demosaiced).
    Func demosaic() {
        // Planes at quarter resolution: 0 green on red rows, 1 red, 2 blue,
        // 3 green on blue rows.
        planes(x, y, c) = denoised(2 * x + c % 2, 2 * y + c / 2);

        auto p = [&](int plane, Expr px, Expr py) { return cast<float>(planes(px, py, plane)); };
        Expr gr = p(0, x, y), r = p(1, x, y), b = p(2, x, y), gb = p(3, x, y);
        Expr r_at_gr = (p(1, x - 1, y) + r) / 2, b_at_gr = (p(2, x, y - 1) + b) / 2;
        Expr g_at_r = (gr + p(0, x + 1, y) + p(3, x, y - 1) + gb) / 4;
        Expr b_at_r = (p(2, x, y - 1) + b + p(2, x + 1, y - 1) + p(2, x + 1, y)) / 4;
        Expr g_at_b = (p(3, x - 1, y) + gb + gr + p(0, x, y + 1)) / 4;
        Expr r_at_b = (p(1, x - 1, y) + r + p(1, x - 1, y + 1) + p(1, x, y + 1)) / 4;
        Expr r_at_gb = (r + p(1, x, y + 1)) / 2, b_at_gb = (b + p(2, x + 1, y)) / 2;
        // (x, y, position, channel)
        demosaiced(x, y, c) = mux(c, {r_at_gr, gr, b_at_gr, r, g_at_r, b_at_r,
                                      r_at_b, g_at_b, b, r_at_gb, gb, b_at_gb});
        Expr position = (x % 2) + 2 * (y % 2);
        Func rgb("rgb");
        rgb(x, y, c) = demosaiced(x / 2, y / 2, 3 * position + c);
        return rgb;
    }

    // Linearise and colour-correct (corrected): rows of `matrix` are output
    // channels.
    void correct_color(Func rgb) {
        Expr range = cast<float>(white_level - black_level);
        Func linear("linear");
        linear(x, y, c) = (rgb(x, y, c) - cast<float>(black_level)) / range;
        corrected(x, y, c) = matrix(3, c) + matrix(0, c) * linear(x, y, 0) +
                             matrix(1, c) * linear(x, y, 1) + matrix(2, c) * linear(x, y, 2);
    }

    // The tone curve as a lookup table over 10-bit codes (curve), applied to
    // the corrected image (curved).
    void tone_map() {
        Expr v = clamp(cast<float>(x) / 1023.0f, 0.0f, 1.0f);
        Expr g = pow(v, 1.0f / gamma);
        Expr s = 2.0f - pow(2.0f, contrast / 100.0f);
        Expr a = 2.0f - 2.0f * s;
        Expr toned = select(g > 0.5f, 1.0f - (a * (1.0f - g) * (1.0f - g) + s * (1.0f - g)), a * g * g + s * g);
        curve(x) = u8(clamp(toned * 255.0f + 0.5f, 0.0f, 255.0f));
        curved(x, y, c) = curve(clamp(cast<int>(corrected(x, y, c) * 1023.0f), 0, 1023));
    }

    // Unsharp mask with a [1 2 1] blur, into the output.
    void sharpen() {
        Func blur_y("blur_y"), blur("blur");
        blur_y(x, y, c) = (u16(curved(x, y - 1, c)) + 2 * u16(curved(x, y, c)) + curved(x, y + 1, c)) / 4;
        blur(x, y, c) = (blur_y(x - 1, y, c) + 2 * blur_y(x, y, c) + blur_y(x + 1, y, c)) / 4;
        Expr detail = cast<float>(curved(x, y, c)) - cast<float>(blur(x, y, c));
        output(x, y, c) = u8_sat(cast<float>(curved(x, y, c)) + sharpen_strength * detail + 0.5f);
    }

    void declare_estimates() {
        input.set_estimates({{0, 2592}, {0, 1968}});
        matrix.set_estimates({{0, 4}, {0, 3}});
        gamma.set_estimate(2.2f);
        contrast.set_estimate(50.0f);
        black_level.set_estimate(25);
        white_level.set_estimate(1023);
        sharpen_strength.set_estimate(1.0f);
        output.set_estimates({{0, 2592}, {0, 1968}, {0, 3}});
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(CameraPipe, camera_pipe)
