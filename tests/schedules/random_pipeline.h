#pragma once
// Random pipelines with random CPU schedules, written as Halide users write
// them: stencils, pointwise stages, reductions over an RDom, scans,
// histograms, up- and downsampling, tuples, a second output; scheduled
// inline, at the root, or inside the output's strips and tiles, with
// parallel loops (nested too), vectorize, unroll, async, store_at (sliding
// windows and storage folding), align_storage and specialize. The same
// pipelines with GPU schedules: gpu_tile at the root, gpu_threads inside
// the output's GPU blocks, and GPU tiles inside parallel CPU strips.
//
// A case is one seed. Every random choice is drawn when the case is made,
// so leaving out some of its schedule directives (to shrink a failure)
// changes nothing else.
#include "Halide.h"

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace harena_test {

// One pipeline of a case, built afresh each time (its Funcs and parameters
// are its own): one built planned and one plain never share state.
struct BuiltPipeline {
    Halide::ImageParam input{Halide::UInt(16), 2, "input"};
    std::vector<Halide::Func> outputs;
};

struct RandomCase {
    uint64_t seed = 0;
    bool gpu = false;           // a GPU schedule (random_gpu_case): compile it for CUDA
    int width = 0, height = 0;  // the size of each call's input and outputs
    // The pipeline's definition, and each schedule directive with what it
    // says, in the order they apply.
    std::function<void(BuiltPipeline &)> define;
    struct Directive {
        std::string text;
        std::function<void(BuiltPipeline &)> apply;
    };
    std::vector<Directive> directives;
    // Instead of directives: the autoscheduler whose schedule the case takes
    // (by its plugin's name, autoschedulers.h), at the case's estimates.
    std::string autoscheduler;

    // The pipeline with every directive but those in `left_out`.
    [[nodiscard]] BuiltPipeline build(const std::set<size_t> &left_out = {}) const;
    // The pipeline and the directives kept, as text.
    [[nodiscard]] std::string describe(const std::set<size_t> &left_out = {}) const;
    std::string stages_text;
};

// `autoschedulers`: the names a case may take its schedule from instead
// (about one case in five does, where any are given).
RandomCase random_case(uint64_t seed, const std::vector<std::string> &autoschedulers = {});

// Case `seed`'s pipeline as random_case draws it, with a GPU schedule: the
// output in GPU tiles (16x16, 32x8, 8x8), or in GPU tiles inside parallel
// CPU strips (split(y, yo, yi, N).parallel(yo), then gpu_tile over x and
// yi); every other stage inline, at the root in GPU tiles, computed at the
// output's GPU block on its threads, at a strip in GPU tiles of its own (so
// that its device buffer is allocated inside a parallel CPU loop), or at
// its consumer's GPU block. Update definitions are scheduled as their pure
// definition. The CPU's cases draw nothing differently for it.
RandomCase random_gpu_case(uint64_t seed);

}  // namespace harena_test
