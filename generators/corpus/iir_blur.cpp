// A recursive (IIR) blur: a first-order filter runs down every column with
// an RDom scan, then back up, the result is transposed, and the same two
// passes run again, so both directions are filtered with column scans.
#include "Halide.h"

namespace {

using namespace Halide;

class IirBlur : public Generator<IirBlur> {
public:
    Input<Buffer<float, 3>> input{"input"};
    Input<float> alpha{"alpha"};  // weight of the new sample, in (0, 1]
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        Func first = scan_and_transpose(input, input.height(), "down");
        Func second = scan_and_transpose(first, input.width(), "across");
        output = second;

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        alpha.set_estimate(0.1f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        Var xi("xi"), yi("yi"), xo("xo"), yo("yo"), ci("ci");
        const bool gpu = get_target().has_gpu_feature();
        const int vec = natural_vector_size<float>();
        for (size_t i = 0; i < scans.size(); i++) {
            Func scan = scans[i], transposed = transposes[i];
            RVar ry = scan_rdoms[i];
            if (gpu) {
                // One thread per column walks the column serially: the
                // recurrence runs in the same order in every build.
                // (An update's reduction loop is innermost by default.)
                scan.compute_root();
                // Guarded: updates cannot shift their last block inwards, and
                // widths need not be multiples of 64.
                for (int u = 0; u < 3; u++) {
                    scan.update(u).gpu_tile(x, c, xi, ci, 64, 1, TailStrategy::GuardWithIf);
                }
                transposed.compute_root().gpu_tile(x, y, xi, yi, 16, 16);
            } else {
                // Tiles of the transpose scan the columns they need.
                transposed.compute_root()
                    .tile(x, y, xo, yo, xi, yi, vec, vec * 4)
                    .vectorize(xi)
                    .parallel(yo)
                    .parallel(c);
                scan.compute_at(transposed, yo);
                scan.update(0).vectorize(x, vec);
                scan.update(1).reorder(x, ry).vectorize(x);
                scan.update(2).reorder(x, ry).vectorize(x);
            }
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
    std::vector<Func> scans, transposes;
    std::vector<RDom> scan_rdoms;

    // Filters f's columns (rows 0 .. height-1) causally and then
    // anti-causally, and returns the transpose.
    Func scan_and_transpose(Func f, Expr height, const std::string &name) {
        Func scan(name + "_scan");
        scan(x, y, c) = undef<float>();
        scan(x, 0, c) = f(x, 0, c);
        RDom ry(1, height - 1);
        scan(x, ry, c) = (1.0f - alpha) * scan(x, ry - 1, c) + alpha * f(x, ry, c);
        Expr up = height - 1 - ry;
        scan(x, up, c) = (1.0f - alpha) * scan(x, up + 1, c) + alpha * scan(x, up, c);
        Func transposed(name + "_transposed");
        transposed(x, y, c) = scan(y, x, c);
        scans.push_back(scan);
        transposes.push_back(transposed);
        scan_rdoms.push_back(ry);
        return transposed;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirBlur, iir_blur)
