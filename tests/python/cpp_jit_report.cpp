// The C++ side of the JIT report comparison (generator_test.py): builds a
// corpus generator's pipeline in the process, plans it into an arena
// argument with harena::plan_into_argument, and compiles it for JIT, which
// writes its plan report.
//
// Usage: cpp_jit_report GENERATOR TARGET REPORT_DIR
#include "harena/jit.h"

#include <iostream>

int main(int argc, char **argv) {
    if (argc != 4) {
        std::cerr << "usage: cpp_jit_report GENERATOR TARGET REPORT_DIR\n";
        return 2;
    }
    try {
        const Halide::Target target(argv[2]);
        auto generator = Halide::Internal::GeneratorRegistry::create(argv[1], Halide::GeneratorContext(target));
        Halide::Pipeline pipeline = generator->build_pipeline();
        Halide::ImageParam arena(Halide::UInt(8), 1, "arena");
        harena::JitPlanOptions options;
        options.pipeline_name = argv[1];
        options.report_dir = argv[3];
        const harena::ArgumentPlan plan = harena::plan_into_argument(pipeline, arena, target, options);
        pipeline.compile_jit(target);
        std::cout << plan.bytes_at_estimates << "\n";
    } catch (const Halide::Error &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
