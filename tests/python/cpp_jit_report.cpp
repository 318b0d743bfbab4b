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
        if (!target.has_gpu_feature()) {
            // The requirement halide_arena.plan adds for a host arena
            // (python/src/jit_planner.cpp), so that both statements match.
            using namespace Halide::Internal;
            const Halide::Expr buffer =
                Variable::make(Halide::type_of<halide_buffer_t *>(), "arena.buffer", arena.parameter());
            const Halide::Expr host = Call::make(Halide::Handle(), Call::buffer_get_host, {buffer}, Call::Extern);
            pipeline.add_requirement(
                Halide::reinterpret(Halide::UInt(64), host) % Halide::Expr(uint64_t(128)) == Halide::Expr(uint64_t(0)),
                "arena argument 'arena' of " + std::string(argv[1]) +
                    " starts at an address that is not a multiple of 128 bytes; make it with "
                    "halide_arena.host_arena(bytes) or as a halide.Buffer");
        }
        pipeline.compile_jit(target);
        std::cout << plan.bytes_at_estimates << "\n";
    } catch (const Halide::Error &e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
