// The variable-k pipeline: select k components (k changes every run, up to
// 8192), then per component build sixteen 7x7 matrices, reduce them to one,
// take row sums and project to 32 and 16 features; finally reduce over the
// components. Nine intermediates sized k*16*7*7, k*7*7, k*7, k*32, k*16...
#include "Halide.h"

using namespace Halide;

class VariableK : public Generator<VariableK> {
public:
    Input<Buffer<float>> candidates{"candidates", 2};  // [feature 0..15][candidate]
    Input<int> k{"k", 64, 1, 8192};
    Output<Buffer<float>> output{"output", 1};        // 32 values

    void generate() {
        Expr n = candidates.dim(1).extent();
        // Component i takes a scattered candidate: a stand-in for a top-k pick.
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
        Func per_component[] = {selected, mats, mat, rows, norm, proj32, proj16, gate};
        if (get_target().has_gpu_feature()) {
            Var io, ii;
            for (Func f : per_component) {
                f.compute_root();
                Var i = f.args().back();
                f.gpu_tile(i, io, ii, 64);
            }
            Var co, ci;
            output.gpu_tile(c, co, ci, 32);
        } else {
            for (Func f : per_component) {
                f.compute_root();
            }
        }
    }

private:
    Var f{"f"}, i{"i"}, j{"j"}, a{"a"}, b{"b"}, c{"c"};
    Func selected{"selected"}, mats{"mats"}, mat{"mat"}, rows{"rows"}, norm{"norm"};
    Func proj32{"proj32"}, proj16{"proj16"}, gate{"gate"};
};

HALIDE_REGISTER_GENERATOR(VariableK, variable_k)
