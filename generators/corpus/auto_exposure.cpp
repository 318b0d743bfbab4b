// Global tone mapping with automatic exposure (Reinhard's photographic
// operator): the log-average luminance of a downsampled image is reduced to
// one number, which sets the exposure of every output pixel. The reduction
// ends in a zero-dimensional Func computed on the GPU by one thread, as
// Halide programs write a total that every pixel reads.
#include "Halide.h"

namespace {

using namespace Halide;

class AutoExposure : public Generator<AutoExposure> {
public:
    GeneratorParam<int> factor{"factor", 8, 2, 32};  // downsampling of the metering image

    Input<Buffer<uint16_t, 3>> input{"input"};  // linear RGB
    Input<float> key{"key"};                    // the exposure the average maps to
    Input<float> white{"white"};                // the luminance that maps to white
    Output<Buffer<uint16_t, 3>> output{"output"};

    void generate() {
        const int f = factor;
        Func clamped = BoundaryConditions::repeat_edge(input);
        Func linear("linear");
        linear(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.0f;
        Expr luminance = 0.2126f * linear(x, y, 0) + 0.7152f * linear(x, y, 1) + 0.0722f * linear(x, y, 2);
        lum(x, y) = luminance;

        // Metering: the mean of log luminance over f x f blocks, then over
        // rows, then over the whole image.
        RDom b(0, f, 0, f);
        meter(x, y) = sum(log(lum(x * f + b.x, y * f + b.y) + 1e-4f)) / (f * f);
        Expr mw = input.width() / f, mh = input.height() / f;
        RDom across(0, mw);
        rows(y) = sum(meter(across, y));
        RDom down(0, mh);
        total() = 0.0f;
        total() += rows(down);
        Expr average = exp(total() / cast<float>(mw * mh));

        // Reinhard's operator with a white point, applied to luminance.
        Expr scaled = key / average * lum(x, y);
        Expr mapped = scaled * (1.0f + scaled / (white * white)) / (1.0f + scaled);
        Expr ratio = mapped / max(lum(x, y), 1e-6f);
        output(x, y, c) = cast<uint16_t>(clamp(linear(x, y, c) * ratio, 0.0f, 1.0f) * 65535.0f + 0.5f);

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        key.set_estimate(0.18f);
        white.set_estimate(2.0f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        Var xi("xi"), yi("yi");
        if (get_target().has_gpu_feature()) {
            meter.compute_root().gpu_tile(x, y, xi, yi, 16, 8);
            rows.compute_root().gpu_tile(y, yi, 64);
            total.compute_root().gpu_single_thread();
            total.update().gpu_single_thread();
            output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
        } else {
            const int vec = natural_vector_size<float>();
            meter.compute_root().parallel(y).vectorize(x, vec);
            rows.compute_root().vectorize(y, vec);
            total.compute_root();
            output.compute_root().reorder(c, x, y).bound(c, 0, 3).unroll(c).parallel(y).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    Func lum{"lum"}, meter{"meter"}, rows{"rows"}, total{"total"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(AutoExposure, auto_exposure)
