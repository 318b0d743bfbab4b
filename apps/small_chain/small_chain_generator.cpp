// A chain of short stencils on a small image (24 by default, `stages=N`):
// three-tap blurs alternating between rows and columns, each with a bias and
// a leaky clamp. Every stage costs a kernel launch and little else, so on a
// GPU the time per run is launch and allocation overhead, not arithmetic.
// 23 intermediates by default.
//
// intermediates_as_outputs=true builds the same stages with every
// intermediate an extra output after `output`, so that a caller can pass all
// of them in preallocated (the benchmark's zero-allocation reference).
#include "Halide.h"
#include "harena/bounds.h"

#include <string>
#include <vector>

using namespace Halide;

class SmallChain : public Generator<SmallChain> {
public:
    static constexpr int kMaxExtent = 256;

    GeneratorParam<int> stage_count{"stages", 24, 2, 64};
    GeneratorParam<bool> intermediates_as_outputs{"intermediates_as_outputs", false};

    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void configure() {
        if (intermediates_as_outputs) {
            for (int i = 1; i < stage_count; i++) {
                extra_outputs.push_back(add_output<Buffer<float>>(stage_name(i), 2));
            }
        }
    }

    void generate() {
        Func previous = BoundaryConditions::repeat_edge(input);
        for (int i = 1; i <= stage_count; i++) {
            Func f = i == stage_count ? Func(output) : extra_outputs.empty() ? Func(stage_name(i)) :
                                                                               Func(*extra_outputs[i - 1]);
            Expr sum = i % 2 ? previous(x - 1, y) + 2.0f * previous(x, y) + previous(x + 1, y) : previous(x, y - 1) + 2.0f * previous(x, y) + previous(x, y + 1);
            Expr v = sum * 0.25f + 0.01f * i;
            f(x, y) = max(v, 0.1f * v);
            if (i < stage_count) {
                stages.push_back(f);
            }
            previous = f;
        }
    }

    void schedule() {
        // Pinning the output's min makes every stage's extent a function of
        // the output's extent alone, which the planner can bound.
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        const bool gpu = get_target().has_gpu_feature();
        for (Func f : stages) {
            f.compute_root();
            if (gpu) {
                // Exactly the region the consumers need, also where it is
                // narrower than a tile: shifting a tile inwards would touch
                // memory outside it, which an intermediate passed in as an
                // output (intermediates_as_outputs) does not have.
                tile(f, TailStrategy::GuardWithIf);
            }
        }
        if (gpu) {
            tile(output, TailStrategy::Auto);
        }
    }

private:
    Var x{"x"}, y{"y"};
    std::vector<GeneratorOutput<Buffer<float>> *> extra_outputs;
    std::vector<Func> stages;

    static std::string stage_name(int i) {
        return "stage" + std::to_string(i);
    }

    void tile(Func f, TailStrategy tail) {
        Var xo, yo, xi, yi;
        f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, tail);
    }
};

HALIDE_REGISTER_GENERATOR(SmallChain, small_chain)
