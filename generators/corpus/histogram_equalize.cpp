// Histogram equalisation of an 8-bit colour image: the luma's histogram is
// counted per row with an RDom and summed over rows, a prefix sum over the
// 256 bins gives the CDF, and the CDF remaps the luma before the chroma is
// added back. Counts are integers, so every order of summation gives the
// same result.
#include "Halide.h"

namespace {

using namespace Halide;
using namespace Halide::ConciseCasts;

class HistogramEqualize : public Generator<HistogramEqualize> {
public:
    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        luma(x, y) = 0.299f * input(x, y, 0) + 0.587f * input(x, y, 1) + 0.114f * input(x, y, 2);
        Expr cr = (input(x, y, 0) - luma(x, y)) * 0.713f;
        Expr cb = (input(x, y, 2) - luma(x, y)) * 0.564f;

        // Counts per row first, so that rows can be counted independently.
        row_hist(x, y) = 0;
        rx = RDom(0, input.width());
        row_hist(cast<int>(clamp(luma(rx, y), 0.0f, 255.0f)), y) += 1;

        hist(x) = 0;
        ry = RDom(0, input.height());
        hist(x) += row_hist(x, ry);

        cdf(x) = hist(0);
        RDom b(1, 255);
        cdf(b) = cdf(b - 1) + hist(b);

        Expr pixels = cast<float>(input.width() * input.height());
        Expr bin = cast<int>(clamp(luma(x, y), 0.0f, 255.0f));
        equalized(x, y) = cast<float>(cdf(bin)) * (255.0f / pixels);

        Expr e = equalized(x, y);
        Expr r = u8(clamp(e + 1.403f * cr, 0.0f, 255.0f));
        Expr g = u8(clamp(e - 0.344f * cb - 0.714f * cr, 0.0f, 255.0f));
        Expr bl = u8(clamp(e + 1.773f * cb, 0.0f, 255.0f));
        output(x, y, c) = mux(c, {r, g, bl});

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        // The CDF covers exactly the 256 bins the remap reads.
        cdf.bound(x, 0, 256);
        output.bound(c, 0, 3).reorder(c, x, y).unroll(c);
        Var xi("xi"), yi("yi");
        if (get_target().has_gpu_feature()) {
            // One thread per row counts that row; one thread per bin sums
            // the rows; the scan runs on one thread.
            row_hist.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            // Guarded: an update cannot shift its last block inwards, and the
            // height need not be a multiple of 64.
            row_hist.update().gpu_tile(y, yi, 64, TailStrategy::GuardWithIf);
            hist.compute_root().gpu_tile(x, xi, 64);
            hist.update().gpu_tile(x, xi, 64);
            cdf.compute_root().gpu_single_thread();
            cdf.update().gpu_single_thread();
            output.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
        } else {
            const int vec = natural_vector_size<float>();
            row_hist.compute_root().vectorize(x, vec).parallel(y, 16);
            row_hist.update().parallel(y, 16);
            hist.compute_root().vectorize(x, vec);
            hist.update().reorder(x, ry).vectorize(x, vec);
            cdf.compute_root();
            output.compute_root().parallel(y, 8).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    RDom rx, ry;
    Func luma{"luma"}, row_hist{"row_hist"}, hist{"hist"}, cdf{"cdf"}, equalized{"equalized"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(HistogramEqualize, histogram_equalize)
