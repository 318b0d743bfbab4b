// The variable-k pipeline: select k components (k changes every run, up to
// 8192), then per component build sixteen 7x7 matrices, reduce them to one,
// take row sums and project to 32 and 16 features; finally reduce over the
// components as a tree (sums of 16, of 256, then the rest) so that a GPU
// spreads the reduction over threads. Ten intermediates sized k*16,
// k*16*7*7, k*7*7, k*7, k, k*32, k*16, k, 16*ceil(k/16) and 16*ceil(k/256)
// floats.
//
// intermediates_as_outputs=true builds the same stages with every
// intermediate an extra output after `output`, so that a caller can pass all
// of them in preallocated (the benchmark's zero-allocation reference).
#include "Halide.h"

#include <string>
#include <vector>

using namespace Halide;

class VariableK : public Generator<VariableK> {
public:
    GeneratorParam<bool> intermediates_as_outputs{"intermediates_as_outputs", false};

    Input<Buffer<float>> candidates{"candidates", 2};  // [feature 0..15][candidate]
    Input<int> k{"k", 64, 1, 8192};
    Output<Buffer<float>> output{"output", 1};  // 32 values

    void configure() {
        if (intermediates_as_outputs) {
            for (const Stage &s : kStages) {
                extra_outputs.push_back(add_output<Buffer<float>>(s.name, (int)s.inner.size() + 1));
            }
        }
    }

    void generate() {
        for (size_t s = 0; s < kStages.size(); s++) {
            stages.push_back(extra_outputs.empty() ? Func(kStages[s].name) : Func(*extra_outputs[s]));
        }
        Func selected = stages[0], mats = stages[1], mat = stages[2], rows = stages[3], norm = stages[4];
        Func proj32 = stages[5], proj16 = stages[6], gate = stages[7], sum16 = stages[8], sum256 = stages[9];

        Expr n = candidates.dim(1).extent();
        // Component i takes a scattered candidate: a stand-in for a top-k pick.
        selected(f, i) = candidates(f, (i * 7919) % n);
        // The matrix index (a, b) is innermost, so that the threads of mat,
        // one per (a, b), read neighbouring floats at every step of their sum.
        mats(a, b, j, i) = selected(j, i) * cast<float>(a + 1) - selected((j + a + b) % 16, i) * cast<float>(b);
        RDom rj(0, 16);
        mat(a, b, i) = sum(mats(a, b, rj, i));
        RDom rb(0, 7);
        rows(a, i) = sum(mat(a, rb, i) * mat(rb, a, i));
        norm(i) = sqrt(sum(rows(rb, i) * rows(rb, i)) + 1.0f);
        RDom ra(0, 7);
        proj32(c, i) = sum(rows(ra, i) * cast<float>((c * 7 + ra) % 5 - 2)) / norm(i);
        proj16(c, i) = max(proj32(c, i), proj32(c + 16, i));
        gate(i) = 1.0f / (1.0f + exp(-proj16(i % 16, i)));
        // The sum over the k components, as a tree: sums of 16 components,
        // sums of 16 of those, then the rest in the output. A GPU runs each
        // level's sums in parallel; one thread looping over all k (or a
        // long chain of loads in few threads) leaves it idle. Output c and
        // c + 16 share their sum.
        RDom r16(0, 16);
        r16.where(u * 16 + r16 < k);
        sum16(c, u) = sum(proj16(c, u * 16 + r16) * gate(u * 16 + r16));
        Expr sums16 = (k + 15) / 16;
        RDom r256(0, 16);
        r256.where(u * 16 + r256 < sums16);
        sum256(c, u) = sum(sum16(c, u * 16 + r256));
        RDom rest(0, (k + 255) / 256);
        output(c) = sum(sum256(c % 16, rest)) + cast<float>(c);
    }

    void schedule() {
        output.dim(0).set_bounds(0, 32);
        // As intermediates their inner extents are known when compiling, so
        // their strides are constants; as outputs the same shapes are
        // declared, which gives the kernels the same index arithmetic.
        for (size_t s = 0; s < extra_outputs.size(); s++) {
            dense(*extra_outputs[s], kStages[s].inner);
        }
        if (get_target().has_gpu_feature()) {
            for (size_t s = 0; s < stages.size(); s++) {
                stages[s].compute_root();
                gpu_threads_per_element(stages[s], kStages[s].inner);
            }
            Var co, ci;
            output.gpu_tile(c, co, ci, 32);
        } else {
            for (Func f : stages) {
                f.compute_root();
            }
        }
    }

private:
    // One thread per element of f (all its dimensions fused), as Halide's
    // GPU apps do: with one thread per component a small k left most of the
    // GPU idle. Where a component's elements (its inner dimensions, of
    // constant extents, fused) come in fours, a thread takes four
    // neighbours as one vector: fewer threads and 16-byte stores, which made
    // mats' kernel about three times faster. The last block is guarded, not
    // shifted, since k can be smaller than a block.
    static void gpu_threads_per_element(Func f, const std::vector<int> &inner) {
        const std::vector<Var> args = f.args();
        Var fused = args.front();
        int elements = inner.empty() ? 1 : inner.front();
        for (size_t d = 1; d < args.size(); d++) {
            if (d == inner.size() && elements % 4 == 0) {
                Var vec;
                f.split(fused, fused, vec, 4).vectorize(vec);
            }
            Var wider;
            f.fuse(fused, args[d], wider);
            fused = wider;
            elements *= d < inner.size() ? inner[d] : 1;
        }
        Var block, thread;
        f.gpu_tile(fused, block, thread, 128, TailStrategy::GuardWithIf);
    }

    // Each stage's name and its inner extents; the component (or chunk)
    // index follows.
    struct Stage {
        const char *name;
        std::vector<int> inner;
    };
    inline static const std::vector<Stage> kStages = {
        {"selected", {16}},
        {"mats", {7, 7, 16}},
        {"mat", {7, 7}},
        {"rows", {7}},
        {"norm", {}},
        {"proj32", {32}},
        {"proj16", {16}},
        {"gate", {}},
        {"sum16", {16}},
        {"sum256", {16}},
    };

    Var f{"f"}, i{"i"}, j{"j"}, a{"a"}, b{"b"}, c{"c"}, u{"u"};
    std::vector<GeneratorOutput<Buffer<float>> *> extra_outputs;
    std::vector<Func> stages;

    // Inner dimensions from 0 and densely packed; the component dimension
    // follows them.
    static void dense(GeneratorOutput<Buffer<float>> &out, const std::vector<int> &inner) {
        int stride = 1;
        for (size_t d = 0; d < inner.size(); d++) {
            out.dim(d).set_bounds(0, inner[d]).set_stride(stride);
            stride *= inner[d];
        }
        out.dim(inner.size()).set_stride(stride);
    }
};

HALIDE_REGISTER_GENERATOR(VariableK, variable_k)
