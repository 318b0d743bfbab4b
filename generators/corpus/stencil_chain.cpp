// A long chain of 3x3 stencils on 16-bit data, one stage per GeneratorParam
// step: the shape of many image-processing pipelines made long enough that
// dozens of intermediates are alive in turn.
#include "Halide.h"

namespace {

using namespace Halide;

class StencilChain : public Generator<StencilChain> {
public:
    GeneratorParam<int> stages{"stages", 32, 1, 128};

    Input<Buffer<uint16_t, 2>> input{"input"};
    Output<Buffer<uint16_t, 2>> output{"output"};

    void generate() {
        Func prev = BoundaryConditions::repeat_edge(input);
        for (int s = 0; s < stages; s++) {
            Func f("stage_" + std::to_string(s));
            // Weights that change from stage to stage and sum to 16, so the
            // values stay in range; the shift keeps 16 bits.
            const int w = 1 + s % 3;
            Expr sum = cast<uint32_t>(prev(x, y)) * (16 - 4 * w - 4) +
                       w * (cast<uint32_t>(prev(x - 1, y)) + prev(x + 1, y) + prev(x, y - 1) + prev(x, y + 1)) +
                       (cast<uint32_t>(prev(x - 1, y - 1)) + prev(x + 1, y - 1) +
                        prev(x - 1, y + 1) + prev(x + 1, y + 1));
            f(x, y) = cast<uint16_t>(sum >> 4);
            chain.push_back(f);
            prev = f;
        }
        output(x, y) = prev(x, y);

        input.set_estimates({{0, 1536}, {0, 2560}});
        output.set_estimates({{0, 1536}, {0, 2560}});
    }

    void schedule() {
        Var xi("xi"), yi("yi"), yo("yo");
        const int n = (int)chain.size();
        if (get_target().has_gpu_feature()) {
            // Stages in pairs: the first of a pair is computed per block in
            // shared memory, the second is stored for the next pair.
            output.compute_root().gpu_tile(x, y, xi, yi, 32, 8);
            for (int s = n - 2; s >= 0; s--) {
                const bool stored = (n - 2 - s) % 2 == 1 || s == 0;
                if (stored) {
                    chain[s].compute_root().gpu_tile(x, y, xi, yi, 32, 8);
                } else {
                    Func consumer = chain[s + 1];
                    chain[s].compute_at(s + 1 == n - 1 ? Func(output) : consumer, x).gpu_threads(x, y);
                }
            }
        } else {
            // Groups of eight stages: the last of each group is stored,
            // the others are computed per strip of its rows.
            const int vec = natural_vector_size<uint16_t>();
            const int group = 8;
            output.compute_root().split(y, yo, yi, 64).parallel(yo).vectorize(x, vec);
            Func group_out = output;
            for (int s = n - 2; s >= 0; s--) {
                if ((n - 1 - s) % group == 0) {
                    chain[s].compute_root().split(y, yo, yi, 64).parallel(yo).vectorize(x, vec);
                    group_out = chain[s];
                } else {
                    chain[s].compute_at(group_out, yo).vectorize(x, vec);
                }
            }
        }
    }

private:
    Var x{"x"}, y{"y"};
    std::vector<Func> chain;
};

}  // namespace

HALIDE_REGISTER_GENERATOR(StencilChain, stencil_chain)
