// The variable-k pipeline of apps/variable_k with every intermediate an extra
// output, for the benchmark's zero-allocation reference: the caller passes all
// of them in preallocated. Algorithm and schedule are the app's, stage for
// stage; the benchmark checks that both produce bit-identical outputs.
#include "Halide.h"

#include <vector>

using namespace Halide;

class VariableKIdeal : public Generator<VariableKIdeal> {
public:
    Input<Buffer<float>> candidates{"candidates", 2};
    Input<int> k{"k", 64, 1, 8192};
    Output<Buffer<float>> output{"output", 1};
    Output<Buffer<float>> selected{"selected", 2};
    Output<Buffer<float>> mats{"mats", 4};
    Output<Buffer<float>> mat{"mat", 3};
    Output<Buffer<float>> rows{"rows", 2};
    Output<Buffer<float>> norm{"norm", 1};
    Output<Buffer<float>> proj32{"proj32", 2};
    Output<Buffer<float>> proj16{"proj16", 2};
    Output<Buffer<float>> gate{"gate", 1};

    void generate() {
        Expr n = candidates.dim(1).extent();
        selected(f, i) = candidates(f, (i * 7919) % n);
        mats(j, a, b, i) = selected(j, i) * cast<float>(a + 1) - selected((j + a + b) % 16, i) * cast<float>(b);
        RDom rj(0, 16);
        mat(a, b, i) = sum(mats(rj, a, b, i));
        RDom rb(0, 7);
        rows(a, i) = sum(mat(a, rb, i) * mat(rb, a, i));
        norm(i) = sqrt(sum(rows(rb, i) * rows(rb, i)) + 1.0f);
        RDom ra(0, 7);
        proj32(c, i) = sum(rows(ra, i) * cast<float>((c * 7 + ra) % 5 - 2)) / norm(i);
        proj16(c, i) = max(proj32(c, i), proj32(c + 16, i));
        gate(i) = 1.0f / (1.0f + exp(-proj16(i % 16, i)));
        RDom ri(0, k);
        output(c) = sum(proj16(c % 16, ri) * gate(ri)) + cast<float>(c);
    }

    void schedule() {
        output.dim(0).set_bounds(0, 32);
        // In the app these are intermediates whose inner extents are known
        // when compiling, so their strides are constants; the same shapes
        // declared here give the kernels the same index arithmetic.
        dense(selected, {16});
        dense(mats, {16, 7, 7});
        dense(mat, {7, 7});
        dense(rows, {7});
        dense(proj32, {32});
        dense(proj16, {16});
        Func per_component[] = {selected, mats, mat, rows, norm, proj32, proj16, gate};
        Var io, ii;
        for (Func f : per_component) {
            Var i = f.args().back();
            f.gpu_tile(i, io, ii, 64);
        }
        Var co, ci;
        output.gpu_tile(c, co, ci, 32);
    }

private:
    Var f{"f"}, i{"i"}, j{"j"}, a{"a"}, b{"b"}, c{"c"};

    // Inner dimensions of these extents from 0, densely packed; the last
    // dimension (the component) follows them.
    static void dense(Output<Buffer<float>> &out, const std::vector<int> &inner) {
        int stride = 1;
        for (size_t d = 0; d < inner.size(); d++) {
            out.dim(d).set_bounds(0, inner[d]).set_stride(stride);
            stride *= inner[d];
        }
        out.dim(inner.size()).set_stride(stride);
    }
};

HALIDE_REGISTER_GENERATOR(VariableKIdeal, variable_k_ideal)
