// A pipeline whose intermediates change size every run with k: `weights` is
// computed on the host and read by kernels (host and device memory),
// `scaled` and `mixed` are device-only on GPU targets and heap allocations on
// the host target.
#include "Halide.h"

namespace {

using namespace Halide;

class VariableKChain : public Generator<VariableKChain> {
public:
    Input<Buffer<float, 1>> input{"input"};
    Input<int> k{"k"};
    Output<Buffer<float, 1>> output{"output"};

    void generate() {
        weights(j) = 1.0f / cast<float>(j + 1);
        scaled(x, j) = input(x) * weights(j);
        mixed(x, j) = scaled(x, j) - scaled(x, k - 1 - j) * 0.25f;
        RDom r(0, k);
        summed(x) = 0.0f;
        summed(x) += mixed(x, r);
        output(x) = summed(x) * 0.5f;
    }

    void schedule() {
        weights.compute_root();
        scaled.compute_root();
        mixed.compute_root();
        summed.compute_root();
        if (get_target().has_gpu_feature()) {
            Var xo("xo"), xi("xi");
            scaled.split(x, xo, xi, 64).gpu_blocks(xo, j).gpu_threads(xi);
            mixed.split(x, xo, xi, 64).gpu_blocks(xo, j).gpu_threads(xi);
            summed.gpu_tile(x, xo, xi, 64);
            summed.update().gpu_tile(x, xo, xi, 64);
            output.gpu_tile(x, xo, xi, 64);
        }
    }

private:
    Var x{"x"}, j{"j"};
    Func weights{"weights"}, scaled{"scaled"}, mixed{"mixed"}, summed{"summed"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(VariableKChain, variable_k_chain)
