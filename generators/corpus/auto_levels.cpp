// Auto levels by horizontal band, as a scanner or camera app stretches the
// contrast of a page or a frame lit unevenly from top to bottom: the GPU
// counts a luma histogram per band of rows; the CPU accumulates each band's
// histogram and finds the codes below and above which a fraction `clip` of
// the band's pixels lie (a small reduction between GPU stages); the GPU then
// stretches each pixel's band from those two codes to the full range. The
// accumulated counts are a host-only buffer whose size follows the input's
// height; the two levels are uploaded for the last stage.
#include "Halide.h"

namespace {

using namespace Halide;
using Halide::ConciseCasts::u16;
using Halide::ConciseCasts::u8;
using Halide::ConciseCasts::u8_sat;

class AutoLevels : public Generator<AutoLevels> {
public:
    GeneratorParam<int> band{"band", 64};  // rows per band
    Input<Buffer<uint8_t, 3>> input{"input"};
    Input<float> clip{"clip"};  // fraction of a band's pixels clipped at each end
    Output<Buffer<uint8_t, 3>> output{"output"};

    void generate() {
        // Integer luma (BT.601 weights in 1/256): counts do not depend on
        // how a target rounds floats.
        luma(x, y) = u8((u16(input(x, y, 0)) * 77 + u16(input(x, y, 1)) * 150 + u16(input(x, y, 2)) * 29 + 128) >> 8);

        // Counts per row first, so that rows can be counted independently.
        row_hist(b, y) = 0;
        rx = RDom(0, input.width());
        row_hist(luma(rx, y), y) += 1;

        Expr height = input.height();
        Expr rows_in_band = clamp(height - s * band, 1, (int)band);
        hist(b, s) = 0;
        rb = RDom(0, band);
        Expr row = s * band + rb;
        hist(b, s) += select(row < height, row_hist(b, min(row, height - 1)), 0);

        // Accumulated counts per band, on the CPU.
        cdf(b, s) = hist(0, s);
        RDom rc(1, 255);
        cdf(rc, s) = cdf(rc - 1, s) + hist(rc, s);

        Expr pixels = rows_in_band * input.width();
        Expr clipped = cast<int>(clip * cast<float>(pixels));
        RDom r(0, 256);
        low(s) = minimum(select(cdf(r, s) > clipped, r, 255));
        high(s) = minimum(select(cdf(r, s) >= pixels - clipped, r, 255));

        Expr lo = low(y / band), hi = max(high(y / band), lo + 1);
        Expr scale = 255.0f / cast<float>(hi - lo);
        output(x, y, c) = u8_sat((cast<float>(input(x, y, c)) - cast<float>(lo)) * scale + 0.5f);

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        clip.set_estimate(0.01f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        // The counts cover exactly the 256 codes.
        cdf.bound(b, 0, 256);
        output.bound(c, 0, 3).reorder(c, x, y).unroll(c);
        Var bo("bo"), bi("bi"), xi("xi"), yi("yi");
        // The band's reduction runs on the CPU in both schedules.
        cdf.compute_root();
        low.compute_root();
        high.compute_root();
        if (get_target().has_gpu_feature()) {
            // One thread per row counts that row; one thread per code and
            // band sums the band's rows.
            row_hist.compute_root().gpu_tile(b, y, bi, yi, 32, 8);
            // Guarded: an update cannot shift its last block inwards, and the
            // height need not be a multiple of 64.
            row_hist.update().gpu_tile(y, yi, 64, TailStrategy::GuardWithIf);
            hist.compute_root().split(b, bo, bi, 64).gpu_blocks(bo, s).gpu_threads(bi);
            hist.update().split(b, bo, bi, 64, TailStrategy::GuardWithIf).gpu_blocks(bo, s).gpu_threads(bi);
            output.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
        } else {
            const int vec = natural_vector_size<int>();
            row_hist.compute_root().vectorize(b, vec).parallel(y, 16);
            row_hist.update().parallel(y, 16);
            hist.compute_root().vectorize(b, vec).parallel(s);
            hist.update().reorder(b, rb, s).vectorize(b, vec).parallel(s);
            output.compute_root().parallel(y, 8).vectorize(x, natural_vector_size<float>());
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, b{"b"}, s{"s"};
    RDom rx, rb;
    Func luma{"luma"}, row_hist{"row_hist"}, hist{"hist"}, cdf{"cdf"}, low{"low"}, high{"high"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(AutoLevels, auto_levels)
