// A bilateral filter through the bilateral grid (Chen, Paris and Durand):
// splat the image into a coarse 3-D grid with an RDom (value and weight per
// cell), blur the grid along z, x and y, and slice it with trilinear
// interpolation. The grid's depth hangs on the runtime range sigma.
#include "Halide.h"

namespace {

using namespace Halide;

class BilateralGrid : public Generator<BilateralGrid> {
public:
    GeneratorParam<int> s_sigma{"s_sigma", 8, 2, 32};  // grid cell size in pixels

    Input<Buffer<float, 2>> input{"input"};  // intensities in [0, 1]
    Input<float> r_sigma{"r_sigma"};         // range of one grid cell along z
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        const int s = s_sigma;
        Func clamped = BoundaryConditions::repeat_edge(input);

        // Splat: every pixel of a cell adds (value, 1) at its intensity's z.
        r = RDom(0, s, 0, s);
        Expr v = clamp(clamped(x * s + r.x - s / 2, y * s + r.y - s / 2), 0.0f, 1.0f);
        Expr z_of_v = cast<int>(v / r_sigma + 0.5f);
        grid(x, y, z, c) = 0.0f;
        grid(x, y, z_of_v, c) += select(c == 0, v, 1.0f);

        // A [1 4 6 4 1] blur along each grid axis.
        blur_z(x, y, z, c) = grid(x, y, z - 2, c) + grid(x, y, z + 2, c) +
                             4.0f * (grid(x, y, z - 1, c) + grid(x, y, z + 1, c)) + 6.0f * grid(x, y, z, c);
        blur_x(x, y, z, c) = blur_z(x - 2, y, z, c) + blur_z(x + 2, y, z, c) +
                             4.0f * (blur_z(x - 1, y, z, c) + blur_z(x + 1, y, z, c)) + 6.0f * blur_z(x, y, z, c);
        blur_y(x, y, z, c) = blur_x(x, y - 2, z, c) + blur_x(x, y + 2, z, c) +
                             4.0f * (blur_x(x, y - 1, z, c) + blur_x(x, y + 1, z, c)) + 6.0f * blur_x(x, y, z, c);

        // Slice: trilinear lookup at (x / s, y / s, value / r_sigma).
        Expr value = clamp(input(x, y), 0.0f, 1.0f);
        Expr zf = value / r_sigma;
        Expr zi = cast<int>(zf);
        Expr tz = zf - cast<float>(zi);
        Expr xi = x / s, yi = y / s;
        Expr tx = cast<float>(x % s) / s, ty = cast<float>(y % s) / s;
        auto plane = [&](Expr zz) {
            return lerp(lerp(blur_y(xi, yi, zz, c), blur_y(xi + 1, yi, zz, c), tx),
                        lerp(blur_y(xi, yi + 1, zz, c), blur_y(xi + 1, yi + 1, zz, c), tx), ty);
        };
        sliced(x, y, c) = lerp(plane(zi), plane(zi + 1), tz);
        output(x, y) = sliced(x, y, 0) / sliced(x, y, 1);

        input.set_estimates({{0, 1536}, {0, 2560}});
        r_sigma.set_estimate(0.1f);
        output.set_estimates({{0, 1536}, {0, 2560}});
    }

    void schedule() {
        Var xi("xi"), yi("yi"), zi("zi");
        if (get_target().has_gpu_feature()) {
            // Each 8x8 block of grid columns splats into shared memory and
            // blurs along z there; every thread owns one column, so the
            // splat's sums run in a fixed order.
            blur_z.compute_root().reorder(c, z, x, y).gpu_tile(x, y, xi, yi, 8, 8);
            grid.compute_at(blur_z, x).reorder(c, z, x, y).gpu_threads(x, y);
            grid.update().reorder(c, r.x, r.y, x, y).gpu_threads(x, y);
            blur_x.compute_root().reorder(c, x, y, z).gpu_tile(x, y, z, xi, yi, zi, 32, 8, 1);
            blur_y.compute_root().reorder(c, x, y, z).gpu_tile(x, y, z, xi, yi, zi, 32, 8, 1);
            output.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            sliced.compute_at(output, xi).unroll(c);
        } else {
            const int vec = natural_vector_size<float>();
            blur_z.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, vec).unroll(c);
            grid.compute_at(blur_z, y);
            grid.update().reorder(c, r.x, r.y, x, y).unroll(c);
            blur_x.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, vec).unroll(c);
            blur_y.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, vec).unroll(c);
            output.compute_root().parallel(y).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, z{"z"}, c{"c"};
    RDom r;
    Func grid{"grid"}, blur_z{"blur_z"}, blur_x{"blur_x"}, blur_y{"blur_y"}, sliced{"sliced"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(BilateralGrid, bilateral_grid)
