// The pipeline of the seed use case, as its users wrote it: select k of the
// input's components, then run stages whose buffers hold k*16*7*7, k*7*7,
// k*7 and k*32 floats, with k different every run. Nothing here knows about
// arenas.
#include "Halide.h"

namespace {

using namespace Halide;

class SelectKStages : public Generator<SelectKStages> {
public:
    Input<Buffer<float, 4>> components{"components"};  // [7, 7, 16, n]
    Input<Buffer<int32_t, 1>> selected{"selected"};    // [k] component indices
    Output<Buffer<float, 1>> output{"output"};         // [32]

    void generate() {
        Expr k = selected.dim(0).extent();
        Expr n = components.dim(3).extent();
        gathered(x, y, c, i) = components(x, y, c, clamp(selected(i), 0, n - 1));
        RDom rc(0, 16);
        pooled(x, y, i) = sum(gathered(x, y, rc, i)) / 16.0f;
        RDom rx(0, 7);
        rows(y, i) = maximum(pooled(rx, y, i));
        RDom ry(0, 7);
        projected(o, i) = sum(rows(ry, i) * sin(cast<float>(o * 7 + ry)));
        RDom ri(0, k);
        output(o) = sum(projected(o, ri)) / cast<float>(k);

        output.dim(0).set_bounds(0, 32);
        components.dim(0).set_bounds(0, 7).dim(1).set_bounds(0, 7).dim(2).set_bounds(0, 16);
    }

    void schedule() {
        for (Func f : {gathered, pooled, rows, projected}) {
            f.compute_root();
        }
        if (get_target().has_gpu_feature()) {
            Var t("t"), b("b");
            gathered.fuse(x, y, t).gpu_blocks(c, i).gpu_threads(t);
            pooled.fuse(x, y, t).gpu_blocks(i).gpu_threads(t);
            rows.gpu_blocks(i).gpu_threads(y);
            projected.gpu_blocks(i).gpu_threads(o);
            output.gpu_tile(o, b, t, 32);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"}, i{"i"}, o{"o"};
    Func gathered{"gathered"}, pooled{"pooled"}, rows{"rows"}, projected{"projected"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SelectKStages, select_k_stages)
