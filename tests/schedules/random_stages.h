#pragma once
// What the CPU and the GPU schedules of a case share (random_pipeline.cpp,
// random_gpu_schedule.cpp): the random stream, the stage kinds, the
// pipeline drawn from a seed, and the scene its directives act on.
#include "random_pipeline.h"

#include <memory>
#include <random>

namespace harena_test {
namespace detail {

class Draw {
public:
    explicit Draw(uint64_t seed)
        : random_(seed) {
    }
    int below(int n) {
        return static_cast<int>(random_() % static_cast<uint64_t>(n));
    }
    bool chance(int percent) {
        return below(100) < percent;
    }
    template<typename T>
    const T &pick(const std::vector<T> &options) {
        return options[below(static_cast<int>(options.size()))];
    }

private:
    std::mt19937_64 random_;
};

enum class StageKind {
    Stencil,
    Pointwise,
    Reduction,
    Scan,
    Histogram,
    Downsample,
    Upsample,
    Tuple,
};

struct StageSpec {
    StageKind kind;
    int second = -1;   // a second earlier stage it reads, or -1
    int reach = 1;     // a stencil's or reduction's radius
    uint32_t mul = 3;  // a pointwise stage's factor
};

// Reductions, scans and histograms: a stage that cannot be inlined.
inline bool has_updates(StageKind k) {
    return k == StageKind::Reduction || k == StageKind::Scan || k == StageKind::Histogram;
}

// A shared handle on what a case's directives act on: the pipeline being
// built, its stages and the loop variables its directives name.
struct Scene {
    Halide::Var x{"x"}, y{"y"};
    std::vector<Halide::Func> stages;
    std::vector<StageSpec> spec;
    // The pipeline's outputs: the last stage, and the second output where
    // the case has one.
    std::vector<Halide::Func> outputs;
    Halide::Var xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"}, tile{"tile"};
    // A GPU tile's blocks and threads.
    Halide::Var bx{"bx"}, by{"by"}, tx{"tx"}, ty{"ty"};
};
using SceneHandle = std::shared_ptr<std::shared_ptr<Scene>>;

// The pipeline of a case: stage 0 is the clamped input, stage n the output.
struct DrawnPipeline {
    std::vector<StageSpec> spec;
    int n = 0;
    int second_from = -1;  // the stage a second output reads, or -1
    SceneHandle scene;     // the scene of the latest build
};

// Draws the case's size and stages and sets c.define, c.width, c.height and
// c.stages_text.
DrawnPipeline draw_pipeline(Draw &draw, RandomCase &c);

// The stages that read stage `i` of a pipeline whose output is stage `n`:
// the next one, and every later one that reads it as its second input.
std::vector<int> consumers_of(const std::vector<StageSpec> &spec, int i, int n);

// Appends a directive that applies `apply` to the scene of each build.
void add_directive(RandomCase &c, const SceneHandle &scene, std::string text, std::function<void(Scene &)> apply);

}  // namespace detail
}  // namespace harena_test
