// The hook for Halide 14, which offers no supported one: generate_filter_main
// builds each registered generator itself, and the generator object is the
// user's own class. What does run between schedule() and lowering is
// GeneratorBase::post_schedule(), defined in libHalide and called from
// Generator<T>::call_schedule_impl, a template instantiated in the
// generator's own object files. harena_generator_main links the generator
// executable with `--wrap` for that symbol (planner/pass/CMakeLists.txt), so
// the linker sends those calls here; Halide's post_schedule runs first
// (through __real_), then the pass is attached. Nothing of libHalide is
// redefined, so how libHalide itself was linked (-Bsymbolic, LTO, static)
// does not matter. An executable linked without the option fails to link
// (__real_ is then undefined); one whose calls escape the wrapper anyway runs
// no pass, and the generator main fails the build.
#include "generator/generator_attach.h"

#include <iostream>

static_assert(harena::halide_major == 14, "the post_schedule wrapper is for Halide 14; later releases use "
                                          "generator_attach_provider.cpp");

namespace {

using Halide::Internal::GeneratorBase;
using Halide::Internal::GeneratorInputBase;
using Halide::Internal::GeneratorParamInfo;
using harena::Parameter;

// GeneratorBase::param_info() is private. Naming it in an explicit
// instantiation is exempt from access checking ([temp.spec]/6), which hands
// the member pointer out; a release whose GeneratorBase lacks it, or gives it
// another type, fails to compile here.
using ParamInfoGetter = GeneratorParamInfo &(GeneratorBase::*)();
ParamInfoGetter param_info_getter();
template<ParamInfoGetter Getter>
struct ParamInfoAccess {
    friend ParamInfoGetter param_info_getter() {
        return Getter;
    }
};
template struct ParamInfoAccess<&GeneratorBase::param_info>;

// GeneratorInputBase::parameters_ is protected: readable through a class
// derived from it.
struct InputParameters : GeneratorInputBase {
    static const std::vector<Parameter> &of(const GeneratorInputBase &input) {
        return input.*(&InputParameters::parameters_);
    }
};

// The scalar and buffer inputs and the buffer outputs a maximum can name.
std::vector<harena::NamedArgument> named_arguments(GeneratorBase &generator) {
    using Halide::Internal::IOKind;
    GeneratorParamInfo &info = (generator.*param_info_getter())();
    std::vector<harena::NamedArgument> arguments;
    for (GeneratorInputBase *input : info.inputs()) {
        if (input->kind() != IOKind::Function) {
            for (const Parameter &p : InputParameters::of(*input)) {
                arguments.push_back({p.name(), p});
            }
        }
    }
    for (Halide::Internal::GeneratorOutputBase *output : info.outputs()) {
        if (output->kind() == IOKind::Buffer) {
            for (const Halide::Func &f : output->funcs()) {
                for (const Halide::OutputImageParam &b : f.output_buffers()) {
                    arguments.push_back({b.name(), b.parameter()});
                }
            }
        }
    }
    return arguments;
}

}  // namespace

// The mangled name of void Halide::Internal::GeneratorBase::post_schedule();
// a member function's `this` is its first argument.
extern "C" void __real__ZN6Halide8Internal13GeneratorBase13post_scheduleEv(GeneratorBase *generator);
extern "C" void __wrap__ZN6Halide8Internal13GeneratorBase13post_scheduleEv(GeneratorBase *generator) {
    __real__ZN6Halide8Internal13GeneratorBase13post_scheduleEv(generator);
    harena::attach_arena(generator->get_pipeline(), generator->context().get_target(), named_arguments(*generator));
}

int harena::run_generator_main(int argc, char **argv) {
    return Halide::Internal::generate_filter_main(argc, argv, std::cerr);
}
