// A local-Laplacian-like pyramid: a Gaussian pyramid over 8 levels, a
// Laplacian pyramid whose coefficients are remapped by their local energy,
// and the collapse back to full resolution. 20 intermediates whose sizes
// follow the output size (halving per level).
//
// intermediates_as_outputs=true builds the same stages with every
// intermediate an extra output after `output`, so that a caller can pass all
// of them in preallocated (the benchmark's zero-allocation reference).
#include "Halide.h"
#include "harena/bounds.h"

#include <string>
#include <vector>

using namespace Halide;

class Pyramid : public Generator<Pyramid> {
public:
    static constexpr int kLevels = 8;
    static constexpr int kMaxExtent = 2048;

    GeneratorParam<bool> intermediates_as_outputs{"intermediates_as_outputs", false};

    Input<Buffer<float>> input{"input", 2};
    Input<float> alpha{"alpha", 0.5f, 0.0f, 4.0f};
    Output<Buffer<float>> output{"output", 2};

    void configure() {
        if (intermediates_as_outputs) {
            for (const std::string &name : stage_names()) {
                extra_outputs.push_back(add_output<Buffer<float>>(name, 2));
            }
        }
    }

    void generate() {
        size_t next = 0;
        auto stage = [&](const std::string &name) {
            Func f = extra_outputs.empty() ? Func(name) : Func(*extra_outputs[next]);
            next++;
            stages.push_back(f);
            return f;
        };
        Func gauss[kLevels], laplace[kLevels - 1], collapse[kLevels - 1];
        gauss[0] = BoundaryConditions::repeat_edge(input);
        for (int j = 1; j < kLevels; j++) {
            gauss[j] = stage("gauss" + std::to_string(j));
            gauss[j](x, y) = downsample(gauss[j - 1])(x, y);
        }
        for (int j = 0; j < kLevels - 1; j++) {
            laplace[j] = stage("laplace" + std::to_string(j));
            laplace[j](x, y) = gauss[j](x, y) - upsample(gauss[j + 1])(x, y);
        }
        Func coarser = gauss[kLevels - 1];
        for (int j = kLevels - 2; j >= 1; j--) {
            collapse[j] = stage("collapse" + std::to_string(j));
            collapse[j](x, y) = upsample(coarser)(x, y) + remap(laplace[j])(x, y);
            coarser = collapse[j];
        }
        output(x, y) = upsample(coarser)(x, y) + remap(laplace[0])(x, y);
    }

    void schedule() {
        // Each level's extent depends on the output's min modulo 2^level; with
        // the min pinned the sizes are bounded by the extent alone.
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
        add_requirement(harena::extent_at_most(output, kMaxExtent));
        // Every intermediate is read at several taps by its consumer, so each
        // is computed once at the root; the remapping is pointwise and inlined.
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

    // The intermediates in the order their outputs are declared.
    static std::vector<std::string> stage_names() {
        std::vector<std::string> names;
        for (int j = 1; j < kLevels; j++) {
            names.push_back("gauss" + std::to_string(j));
        }
        for (int j = 0; j < kLevels - 1; j++) {
            names.push_back("laplace" + std::to_string(j));
        }
        for (int j = kLevels - 2; j >= 1; j--) {
            names.push_back("collapse" + std::to_string(j));
        }
        return names;
    }

    // 32-wide rows of threads read whole cache lines.
    void tile(Func f, TailStrategy tail) {
        Var xo, yo, xi, yi;
        f.gpu_tile(x, y, xo, yo, xi, yi, 32, 8, tail);
    }

    Func downsample(Func f) {
        Func d;
        d(x, y) = (f(2 * x - 1, 2 * y) + 2.0f * f(2 * x, 2 * y) + f(2 * x + 1, 2 * y) + f(2 * x, 2 * y + 1)) / 5.0f;
        return d;
    }

    Func upsample(Func f) {
        Func u;
        u(x, y) = 0.5f * (f(x / 2, y / 2) + f((x + 1) / 2, (y + 1) / 2));
        return u;
    }

    // Amplifies a coefficient where its neighbourhood is flat (little
    // energy), as local Laplacian filtering does for detail enhancement.
    Func remap(Func l) {
        Func r;
        Expr energy = (l(x - 1, y) * l(x - 1, y) + l(x + 1, y) * l(x + 1, y) + l(x, y - 1) * l(x, y - 1) +
                       l(x, y + 1) * l(x, y + 1)) /
                      4.0f;
        r(x, y) = l(x, y) * (1.0f + alpha * exp(-energy));
        return r;
    }
};

HALIDE_REGISTER_GENERATOR(Pyramid, pyramid)
