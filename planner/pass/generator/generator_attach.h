#pragma once
// How halide-arena's generator main attaches the planner pass to the pipeline
// each generator builds. The hook differs between Halide releases (one source
// file per mechanism, chosen in CMakeLists.txt); what is attached and the
// check that it ran are the same for all.
#include "types.h"
#include "halide_compat.h"
#include "generator/lowering_pass.h"
#include "generator/maxima.h"

#include <string>
#include <vector>

namespace harena {

// What the command line asked for (generator_main.cpp fills it).
struct GeneratorConfig {
    bool arena = false;
    PassOptions options;
    std::vector<GivenMaximum> maxima;
    std::string bad_options;  // one line per bad harena.* argument
};

GeneratorConfig &generator_config();

// Adds the maxima's requirements and, for an `arena` build, the planner pass
// to `pipeline`, which the generator built for `target` with `arguments`.
void attach_arena(Halide::Pipeline pipeline, const Halide::Target &target,
                  const std::vector<NamedArgument> &arguments);

// How many times Halide ran an attached pass: lowering calls it once per
// pipeline and target. An `arena` build that lowered a pipeline with this at
// zero ran without the plan.
[[nodiscard]] int arena_passes_run();

// Halide's generate_filter_main with attach_arena hooked into every
// generator it builds. Defined once per hook mechanism.
int run_generator_main(int argc, char **argv);

}  // namespace harena
