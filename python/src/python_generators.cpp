#include "python_generators.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace harena::python {
namespace {

using Halide::Internal::AbstractGenerator;
using ArgInfo = Halide::Internal::AbstractGenerator::ArgInfo;

template<typename T>
std::vector<T> to_vector(const py::handle &list) {
    std::vector<T> out;
    for (const py::handle &item : list) {
        out.push_back(item.cast<T>());
    }
    return out;
}

py::module_ halide_module() {
    return py::module_::import("halide");
}

// One instance of a Python generator class, driven through the methods
// halide.Generator gives every generator.
class PythonGenerator : public AbstractGenerator {
public:
    PythonGenerator(std::string name, py::object generator)
        : name_(std::move(name)), generator_(std::move(generator)) {
    }
    std::string name() override {
        return name_;
    }
    Halide::GeneratorContext context() const override {
        return generator_.attr("context")().cast<Halide::GeneratorContext>();
    }
    std::vector<ArgInfo> arginfos() override {
        return to_vector<ArgInfo>(generator_.attr("_get_arginfos")());
    }
    bool allow_out_of_order_inputs_and_outputs() const override {
        return generator_.attr("allow_out_of_order_inputs_and_outputs")().cast<bool>();
    }
    void set_generatorparam_value(const std::string &name, const std::string &value) override {
        generator_.attr("_set_generatorparam_value")(name, value);
    }
    void set_generatorparam_value(const std::string &name, const Halide::LoopLevel &) override {
        throw Halide::CompileError("Python generators take no LoopLevel GeneratorParam (" + name + ")\n");
    }
    Halide::Pipeline build_pipeline() override {
        return generator_.attr("_build_pipeline")().cast<Halide::Pipeline>();
    }
    std::vector<Parameter> input_parameter(const std::string &name) override {
        return {generator_.attr("_get_input_parameter")(name).cast<Parameter>()};
    }
    std::vector<Halide::Func> output_func(const std::string &name) override {
        return {generator_.attr("_get_output_func")(name).cast<Halide::Func>()};
    }
    void bind_input(const std::string &, const std::vector<Parameter> &v) override {
        generator_.attr("_bind_input")(v);
    }
    void bind_input(const std::string &, const std::vector<Halide::Func> &v) override {
        generator_.attr("_bind_input")(v);
    }
    void bind_input(const std::string &, const std::vector<Halide::Expr> &v) override {
        generator_.attr("_bind_input")(v);
    }
    // Python generators emit neither a C++ stub nor an hlpipe (as in
    // Halide's own Python generator main): false, not an error.
    bool emit_cpp_stub(const std::string &) override {
        return false;
    }
    bool emit_hlpipe(const std::string &) override {
        return false;
    }

private:
    std::string name_;
    py::object generator_;
};

}  // namespace

std::vector<std::string> PythonGenerators::enumerate() const {
    return to_vector<std::string>(halide_module().attr("_get_python_generator_names")());
}

Halide::Internal::AbstractGeneratorPtr PythonGenerators::create(const std::string &name,
                                                                const Halide::GeneratorContext &context) const {
    py::object generator = halide_module().attr("_create_python_generator")(name, context);
    if (name.empty() || generator.is_none()) {
        return nullptr;
    }
    return std::make_unique<PythonGenerator>(name, std::move(generator));
}

}  // namespace harena::python
