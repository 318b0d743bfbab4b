#pragma once
// The Python generators registered with @halide.generator, as Halide's own
// Python generator main creates them (halide's _create_python_generator and
// the methods of halide.Generator), for halide-arena's generator main.
#include "halide_compat.h"

namespace harena::python {

class PythonGenerators : public Halide::Internal::GeneratorFactoryProvider {
public:
    std::vector<std::string> enumerate() const override;
    Halide::Internal::AbstractGeneratorPtr create(const std::string &name,
                                                  const Halide::GeneratorContext &context) const override;
};

}  // namespace harena::python
