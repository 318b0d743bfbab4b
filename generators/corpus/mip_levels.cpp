// Three levels of a Gaussian pyramid (1-2-1 binomial, then every other
// pixel), each an output, as a renderer's mip chain or a feature detector's
// scale space. The CUDA schedule fuses each level's whole chain into its
// tiles: a level-3 tile filters and decimates its level-1 and level-2 parts
// in shared memory, so no level is stored for another's use.
#include "Halide.h"

namespace {

using namespace Halide;

class MipLevels : public Generator<MipLevels> {
public:
    Input<Buffer<float, 2>> input{"input"};
    Output<Buffer<float, 2>> level1{"level1"};
    Output<Buffer<float, 2>> level2{"level2"};
    Output<Buffer<float, 2>> level3{"level3"};

    void generate() {
        Func clamped = BoundaryConditions::repeat_edge(input);
        // Each output's chain of its own Funcs, so that every chain lives in
        // its own output's tiles.
        Func outputs[] = {level1, level2, level3};
        for (int level = 1; level <= 3; level++) {
            Func prev = clamped;
            std::vector<Func> chain;
            for (int step = 1; step < level; step++) {
                Func down = downsample(prev, "down" + std::to_string(level) + "_" + std::to_string(step));
                chain.push_back(down);
                prev = down;
            }
            outputs[level - 1](x, y) = filtered(prev, 2 * x, 2 * y);
            chains.push_back(chain);
        }

        input.set_estimates({{0, 1024}, {0, 1024}});
        level1.set_estimates({{0, 512}, {0, 512}});
        level2.set_estimates({{0, 256}, {0, 256}});
        level3.set_estimates({{0, 128}, {0, 128}});
    }

    void schedule() {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func outputs[] = {level1, level2, level3};
        for (int level = 1; level <= 3; level++) {
            Func out = outputs[level - 1];
            if (get_target().has_gpu_feature()) {
                // Each level down doubles the pixels a tile needs from the
                // level above: 16, 8 and 4 keep every block within 1024
                // threads (level 3's first stage runs 19x19).
                const int tile = 16 >> (level - 1);
                out.gpu_tile(x, y, xo, yo, xi, yi, tile, tile);
                for (Func &down : chains[level - 1]) {
                    down.compute_at(out, xo).gpu_threads(x, y);
                }
            } else {
                out.split(y, yo, yi, 16).parallel(yo).vectorize(x, natural_vector_size<float>());
                for (Func &down : chains[level - 1]) {
                    down.compute_at(out, yo).vectorize(x, natural_vector_size<float>());
                }
            }
        }
    }

private:
    Var x{"x"}, y{"y"};
    std::vector<std::vector<Func>> chains;

    // The 1-2-1 filter of f at (px, py), both directions.
    Expr filtered(Func f, Expr px, Expr py) {
        Expr sum = 0.0f;
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                sum += f(px + dx, py + dy) * (float)((dx == 0 ? 2 : 1) * (dy == 0 ? 2 : 1));
            }
        }
        return sum / 16.0f;
    }

    Func downsample(Func f, const std::string &name) {
        Func down(name);
        down(x, y) = filtered(f, 2 * x, 2 * y);
        return down;
    }
};

}  // namespace

HALIDE_REGISTER_GENERATOR(MipLevels, mip_levels)
