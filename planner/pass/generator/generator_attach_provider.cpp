// The hook for Halide 15 and later: generate_filter_main takes the provider
// that creates each generator, and every generator is an AbstractGenerator.
// The provider here creates the registered generators, each wrapped so that
// the pipeline it builds gets the pass before Halide lowers it. libHalide is
// used only through its public interface.
#include "generator/generator_attach.h"
#include "generator/generator_provider.h"

#include <memory>

static_assert(harena::halide_major >= 15, "generate_filter_main takes a GeneratorFactoryProvider from Halide 15; "
                                          "Halide 14 uses generator_attach_post_schedule.cpp");

namespace harena {
namespace {

using Halide::Internal::AbstractGenerator;
using Halide::Internal::AbstractGeneratorPtr;
using Halide::Internal::ArgInfoDirection;
using Halide::Internal::ArgInfoKind;

// Forwards everything to the generator it wraps; build_pipeline attaches.
class ArenaGenerator : public AbstractGenerator {
public:
    explicit ArenaGenerator(AbstractGeneratorPtr inner)
        : inner_(std::move(inner)) {
    }
    std::string name() override {
        return inner_->name();
    }
    Halide::GeneratorContext context() const override {
        return inner_->context();
    }
    std::vector<ArgInfo> arginfos() override {
        return inner_->arginfos();
    }
    void set_generatorparam_value(const std::string &name, const std::string &value) override {
        inner_->set_generatorparam_value(name, value);
    }
    void set_generatorparam_value(const std::string &name, const Halide::LoopLevel &level) override {
        inner_->set_generatorparam_value(name, level);
    }
    Halide::Pipeline build_pipeline() override {
        Halide::Pipeline pipeline = inner_->build_pipeline();
        attach_arena(pipeline, inner_->context().target(), arguments());
        return pipeline;
    }
    std::vector<Parameter> input_parameter(const std::string &name) override {
        return inner_->input_parameter(name);
    }
    std::vector<Halide::Func> output_func(const std::string &name) override {
        return inner_->output_func(name);
    }
    void bind_input(const std::string &name, const std::vector<Parameter> &v) override {
        inner_->bind_input(name, v);
    }
    void bind_input(const std::string &name, const std::vector<Halide::Func> &v) override {
        inner_->bind_input(name, v);
    }
    void bind_input(const std::string &name, const std::vector<Halide::Expr> &v) override {
        inner_->bind_input(name, v);
    }
    bool emit_cpp_stub(const std::string &path) override {
        return inner_->emit_cpp_stub(path);
    }
    bool emit_hlpipe(const std::string &path) override {
        return inner_->emit_hlpipe(path);
    }
    bool allow_out_of_order_inputs_and_outputs() const override {
        return inner_->allow_out_of_order_inputs_and_outputs();
    }

private:
    // The scalar and buffer inputs and the buffer outputs a maximum can name.
    std::vector<NamedArgument> arguments() {
        std::vector<NamedArgument> out;
        for (const ArgInfo &a : inner_->arginfos()) {
            if (a.dir == ArgInfoDirection::Input && a.kind != ArgInfoKind::Function) {
                for (const Parameter &p : inner_->input_parameter(a.name)) {
                    out.push_back({p.name(), p});
                }
            } else if (a.dir == ArgInfoDirection::Output && a.kind == ArgInfoKind::Buffer) {
                for (const Halide::Func &f : inner_->output_func(a.name)) {
                    for (const Halide::OutputImageParam &b : f.output_buffers()) {
                        out.push_back({b.name(), b.parameter()});
                    }
                }
            }
        }
        return out;
    }

    AbstractGeneratorPtr inner_;
};

// The generators `inner` creates, each wrapped.
class ArenaGenerators : public Halide::Internal::GeneratorFactoryProvider {
public:
    explicit ArenaGenerators(const GeneratorFactoryProvider &inner)
        : inner_(inner) {
    }
    std::vector<std::string> enumerate() const override {
        return inner_.enumerate();
    }
    AbstractGeneratorPtr create(const std::string &name, const Halide::GeneratorContext &context) const override {
        AbstractGeneratorPtr g = inner_.create(name, context);
        return g ? std::make_unique<ArenaGenerator>(std::move(g)) : nullptr;
    }

private:
    const GeneratorFactoryProvider &inner_;
};

}  // namespace

int run_generator_main(int argc, char **argv) {
    return run_generator_main(argc, argv, Halide::Internal::get_registered_generators());
}

int run_generator_main(int argc, char **argv, const Halide::Internal::GeneratorFactoryProvider &generators) {
    ArenaGenerators wrapped(generators);
    return Halide::Internal::generate_filter_main(argc, argv, wrapped);
}

}  // namespace harena
