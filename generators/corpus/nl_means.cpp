// Non-local means denoising (Buades, Coll and Morel): every pixel becomes a
// weighted mean of the pixels in its search window, each weighted by how
// much the patches around the two pixels differ. Patch differences are box
// filtered with RDoms; the search window is an RDom reduction, which the
// GPU schedule turns into a serial host loop over its rows.
#include "Halide.h"

namespace {

using namespace Halide;

class NonLocalMeans : public Generator<NonLocalMeans> {
public:
    Input<Buffer<float, 3>> input{"input"};  // RGB in [0, 1]
    Input<int> patch_size{"patch_size"};     // odd
    Input<int> search_area{"search_area"};   // odd
    Input<float> sigma{"sigma"};             // noise level
    Output<Buffer<float, 3>> output{"output"};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);

        // Squared colour difference between (x, y) and (x + dx, y + dy).
        Expr diff0 = clamped(x, y, 0) - clamped(x + dx, y + dy, 0);
        Expr diff1 = clamped(x, y, 1) - clamped(x + dx, y + dy, 1);
        Expr diff2 = clamped(x, y, 2) - clamped(x + dx, y + dy, 2);
        dist(x, y, dx, dy) = diff0 * diff0 + diff1 * diff1 + diff2 * diff2;

        // Summed over the patch, separably.
        p = RDom(-(patch_size / 2), patch_size);
        patch_y(x, y, dx, dy) = 0.0f;
        patch_y(x, y, dx, dy) += dist(x, y + p, dx, dy);
        patch(x, y, dx, dy) = 0.0f;
        patch(x, y, dx, dy) += patch_y(x + p, y, dx, dy);

        Expr scale = -1.0f / (sigma * sigma * cast<float>(patch_size * patch_size));
        Func weight("weight");
        weight(x, y, dx, dy) = exp(patch(x, y, dx, dy) * scale);

        // Channel 3 accumulates the weights themselves.
        Func with_ones("with_ones");
        with_ones(x, y, c) = select(c < 3, clamped(x, y, min(c, 2)), 1.0f);

        s = RDom(-(search_area / 2), search_area, -(search_area / 2), search_area);
        sum(x, y, c) = 0.0f;
        sum(x, y, c) += weight(x, y, s.x, s.y) * with_ones(x + s.x, y + s.y, c);

        output(x, y, c) = clamp(sum(x, y, c) / sum(x, y, 3), 0.0f, 1.0f);

        input.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
        patch_size.set_estimate(7);
        search_area.set_estimate(7);
        sigma.set_estimate(0.12f);
        output.set_estimates({{0, 1536}, {0, 2560}, {0, 3}});
    }

    void schedule() {
        output.bound(c, 0, 3);
        Var xi("xi"), yi("yi"), tx("tx"), ty("ty");
        if (get_target().has_gpu_feature()) {
            output.compute_root().reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
            // One kernel per row of the search window (a serial loop on the
            // host); each launch first computes that row's patch distances.
            sum.compute_root().bound(c, 0, 4).reorder(c, x, y).unroll(c).gpu_tile(x, y, xi, yi, 32, 8);
            sum.update()
                .reorder(c, s.x, x, y, s.y)
                .unroll(c)
                .gpu_tile(x, y, xi, yi, 32, 8);
            patch.compute_at(sum, s.y).reorder(x, y, dx).gpu_tile(x, y, dx, xi, yi, tx, 32, 8, 1);
            patch.update().reorder(p.x, x, y, dx).gpu_tile(x, y, dx, xi, yi, tx, 32, 8, 1);
            patch_y.compute_at(patch, x).gpu_threads(x, y);
            patch_y.update().gpu_threads(x, y);
        } else {
            const int vec = natural_vector_size<float>();
            output.compute_root().reorder(c, x, y).tile(x, y, tx, ty, x, y, 16, 8).parallel(ty).vectorize(x, vec);
            dist.compute_at(output, tx).vectorize(x, vec);
            patch_y.compute_at(output, tx).vectorize(x, vec);
            patch_y.update().reorder(x, p.x, y).vectorize(x, vec);
            sum.compute_at(output, x).bound(c, 0, 4).reorder(c, x, y).unroll(c).vectorize(x, vec);
            sum.update().reorder(c, x, y, s.x, s.y).unroll(c).vectorize(x, vec);
            patch.compute_at(sum, x).vectorize(x, vec);
            patch.update().reorder(x, p.x).vectorize(x, vec);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, dx{"dx"}, dy{"dy"};
    RDom p, s;
    Func dist{"dist"}, patch_y{"patch_y"}, patch{"patch"}, sum{"sum"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(NonLocalMeans, nl_means)
