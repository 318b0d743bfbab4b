// Colour grading as a photo editor applies a preset: a tone curve from the
// preset's contrast, gamma and black point, and a saturation change around
// each pixel's luminance. The curve is tabulated on the CPU once per call
// and read by the GPU stages, as Halide's own camera pipeline computes its
// curve: a host stage that reads only scalar inputs.
#include "Halide.h"

namespace {

using namespace Halide;
using Halide::ConciseCasts::u8_sat;

class ColorGrade : public Generator<ColorGrade> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};  // sRGB-coded RGB
    Input<float> contrast{"contrast"};         // slope of the curve's S at mid-grey
    Input<float> gamma{"gamma"};
    Input<int> black{"black"};              // the code that maps to black
    Input<float> saturation{"saturation"};  // 1 keeps the colours
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        // The tone curve over the 256 input codes.
        Expr v = clamp((cast<float>(x) - black) / (255.0f - black), 0.0f, 1.0f);
        Expr g = pow(v, 1.0f / gamma);
        Expr s = g + (contrast - 1.0f) * g * (1.0f - g) * (g - 0.5f) * 4.0f;
        curve(x) = clamp(s, 0.0f, 1.0f);

        Func linear("linear");
        linear(x, y, c) = curve(cast<int>(input(x, y, c)));
        lum(x, y) = 0.2126f * linear(x, y, 0) + 0.7152f * linear(x, y, 1) + 0.0722f * linear(x, y, 2);
        // A 3x3 box of luminance: saturation changes around the local grey,
        // which keeps edges from ringing.
        Func clamped_lum = BoundaryConditions::repeat_edge(lum, {{0, input.width()}, {0, input.height()}});
        local(x, y) = (clamped_lum(x - 1, y - 1) + clamped_lum(x, y - 1) + clamped_lum(x + 1, y - 1) +
                       clamped_lum(x - 1, y) + clamped_lum(x, y) + clamped_lum(x + 1, y) +
                       clamped_lum(x - 1, y + 1) + clamped_lum(x, y + 1) + clamped_lum(x + 1, y + 1)) /
                      9.0f;
        Expr graded = local(x, y) + saturation * (linear(x, y, c) - local(x, y));
        output(x, y, c) = u8_sat(graded * 255.0f + 0.5f);

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        contrast.set_estimate(1.2f);
        gamma.set_estimate(2.2f);
        black.set_estimate(8);
        saturation.set_estimate(1.1f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        Var xi("xi"), yi("yi");
        curve.compute_root().bound(x, 0, 256);  // on the CPU in both schedules
        if (get_target().has_gpu_feature()) {
            lum.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            local.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
        } else {
            const int vec = natural_vector_size<float>();
            curve.vectorize(x, vec);
            lum.compute_root().parallel(y).vectorize(x, vec);
            local.compute_root().parallel(y).vectorize(x, vec);
            output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).parallel(y).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func curve{"curve"}, lum{"lum"}, local{"local"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(ColorGrade, color_grade)
