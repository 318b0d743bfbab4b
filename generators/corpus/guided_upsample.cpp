// Bilateral guided upsampling (Chen, Adams, Wadhwa and Hasinoff): an
// operator run at low resolution is fitted, per cell of a coarse bilateral
// grid over the low-resolution guide, as a local affine model (gain and
// offset of the guide's intensity), and the models are sliced at full
// resolution with the full-resolution guide. The grid's cell size and depth
// are floating-point inputs and its spacing at full resolution comes from the
// ratio of the two resolutions, so every grid extent follows float
// arithmetic (casts, ceil, floor) through other stages' loop bounds.
#include "Halide.h"

namespace {

using namespace Halide;

class GuidedUpsample : public Generator<GuidedUpsample> {
public:
    Input<Buffer<float, 2>> low_in{"low_in"};    // the guide at low resolution, in [0, 1]
    Input<Buffer<float, 2>> low_out{"low_out"};  // the operator's output at low resolution
    Input<Buffer<float, 2>> high_in{"high_in"};  // the guide at full resolution
    Input<float> s_sigma{"s_sigma"};             // grid cell, in low-resolution pixels
    Input<float> r_sigma{"r_sigma"};             // grid cell along intensity
    Output<Buffer<float, 2>> output{"output"};

    void generate() {
        Expr cell = cast<int>(ceil(s_sigma));

        Func guide = BoundaryConditions::repeat_edge(low_in);
        Func target = BoundaryConditions::repeat_edge(low_out);

        // Splat the sums a least-squares fit needs: n, g, o, g*g, g*o.
        r = RDom(0, cell, 0, cell);
        Expr sx = x * cell + r.x, sy = y * cell + r.y;
        Expr g = clamp(guide(sx, sy), 0.0f, 1.0f);
        Expr o = target(sx, sy);
        Expr zi = cast<int>(round(g * (1.0f / r_sigma)));
        histogram(x, y, z, c) = 0.0f;
        histogram(x, y, zi, c) += mux(c, {1.0f, g, o, g * g, g * o});

        // A [1 2 1] blur along each grid axis; the grid is as large as the
        // slice reads, so no boundary condition.
        blur_z(x, y, z, c) = histogram(x, y, z - 1, c) + 2.0f * histogram(x, y, z, c) + histogram(x, y, z + 1, c);
        blur_x(x, y, z, c) = blur_z(x - 1, y, z, c) + 2.0f * blur_z(x, y, z, c) + blur_z(x + 1, y, z, c);
        blur_y(x, y, z, c) = blur_x(x, y - 1, z, c) + 2.0f * blur_x(x, y, z, c) + blur_x(x, y + 1, z, c);

        // The affine model of each cell, regularized towards the identity.
        const float lambda = 1e-3f;
        Expr n = blur_y(x, y, z, 0) + lambda, sg = blur_y(x, y, z, 1), so = blur_y(x, y, z, 2);
        Expr sgg = blur_y(x, y, z, 3), sgo = blur_y(x, y, z, 4);
        Expr gain = (n * sgo - sg * so + lambda * n) / (n * sgg - sg * sg + lambda * n);
        model(x, y, z, c) = select(c == 0, gain, (so - gain * sg) / n);

        // Slice: trilinear interpolation of the models at each full-resolution pixel.
        Expr v = clamp(high_in(x, y), 0.0f, 1.0f);
        Expr up_x = cast<int>(ceil(cast<float>(high_in.width()) / low_in.width()));
        Expr up_y = cast<int>(ceil(cast<float>(high_in.height()) / low_in.height()));
        Expr big = s_sigma * cast<float>(max(up_x, up_y));
        Expr xf = cast<float>(x) / big, yf = cast<float>(y) / big;
        Expr zf = v * cast<int>(1.0f / r_sigma);  // whole intensity bins, as a shader would index
        Expr xi = cast<int>(floor(xf)), yi = cast<int>(floor(yf)), zj = cast<int>(zf);
        Expr tx = xf - xi, ty = yf - yi, tz = zf - zj;
        auto corner = [&](Expr dx, Expr dy, Expr dz, int c) { return model(xi + dx, yi + dy, zj + dz, c); };
        auto lerp3 = [&](int c) {
            Expr a = lerp(lerp(corner(0, 0, 0, c), corner(1, 0, 0, c), tx), lerp(corner(0, 1, 0, c), corner(1, 1, 0, c), tx), ty);
            Expr b = lerp(lerp(corner(0, 0, 1, c), corner(1, 0, 1, c), tx), lerp(corner(0, 1, 1, c), corner(1, 1, 1, c), tx), ty);
            return lerp(a, b, tz);
        };
        output(x, y) = lerp3(0) * v + lerp3(1);

        low_in.set_estimates({{0, 384}, {0, 640}});
        low_out.set_estimates({{0, 384}, {0, 640}});
        high_in.set_estimates({{0, 1536}, {0, 2560}});
        s_sigma.set_estimate(8.0f);
        r_sigma.set_estimate(0.125f);
        output.set_estimates({{0, 1536}, {0, 2560}});
    }

    void schedule() {
        Var xi("xi"), yi("yi");
        if (get_target().has_gpu_feature()) {
            histogram.compute_root().reorder(c, z, x, y).gpu_tile(x, y, xi, yi, 8, 8);
            histogram.update().reorder(c, r.x, r.y, x, y).gpu_tile(x, y, xi, yi, 8, 8).unroll(c);
            blur_z.compute_root().gpu_tile(x, y, xi, yi, 8, 8);
            blur_x.compute_root().gpu_tile(x, y, xi, yi, 8, 8);
            blur_y.compute_root().gpu_tile(x, y, xi, yi, 8, 8);
            model.compute_root().gpu_tile(x, y, xi, yi, 8, 8);
            output.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
        } else {
            const int vec = natural_vector_size<float>();
            histogram.compute_root().parallel(y);
            histogram.update().reorder(c, r.x, r.y, x, y).parallel(y).unroll(c);
            blur_z.compute_root().parallel(y).vectorize(x, vec);
            blur_x.compute_root().parallel(y).vectorize(x, vec);
            blur_y.compute_root().parallel(y).vectorize(x, vec);
            model.compute_root().parallel(y).vectorize(x, vec);
            output.compute_root().parallel(y).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, z{"z"}, c{"c"};
    RDom r;
    Func histogram{"histogram"}, blur_z{"blur_z"}, blur_x{"blur_x"}, blur_y{"blur_y"}, model{"model"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(GuidedUpsample, guided_upsample)
