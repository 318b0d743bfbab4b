#include "generator/maxima.h"

#include <cctype>
#include <sstream>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

const NamedArgument *find(const std::vector<NamedArgument> &arguments, const std::string &name, bool buffer) {
    for (const NamedArgument &a : arguments) {
        if (a.name == name && a.param.is_buffer() == buffer) {
            return &a;
        }
    }
    return nullptr;
}

std::string what_exists(const std::vector<NamedArgument> &arguments) {
    std::ostringstream scalars, buffers;
    for (const NamedArgument &a : arguments) {
        if (a.param.is_buffer()) {
            buffers << (buffers.tellp() ? ", " : "") << a.name << ".0";
            if (a.param.dimensions() > 1) {
                buffers << " .. " << a.name << "." << a.param.dimensions() - 1;
            }
        } else if (a.param.type().is_int() || a.param.type().is_uint()) {
            scalars << (scalars.tellp() ? ", " : "") << a.name;
        }
    }
    std::string s = scalars.str(), b = buffers.str();
    return "scalar inputs: " + (s.empty() ? std::string("none") : s) +
           "; buffer dimensions (harena.max.<buffer>.<dim>): " + (b.empty() ? std::string("none") : b);
}

bool all_digits(const std::string &s) {
    if (s.empty()) {
        return false;
    }
    for (char ch : s) {
        if (!std::isdigit((unsigned char)ch)) {
            return false;
        }
    }
    return true;
}

// The value the maximum bounds, or an undefined Expr for an unknown key.
Expr bounded_value(const GivenMaximum &m, const std::vector<NamedArgument> &arguments) {
    size_t dot = m.key.rfind('.');
    if (dot != std::string::npos && all_digits(m.key.substr(dot + 1))) {
        const NamedArgument *a = find(arguments, m.key.substr(0, dot), true);
        int dim = std::stoi(m.key.substr(dot + 1));
        if (!a || dim >= a->param.dimensions()) {
            return Expr();
        }
        return Variable::make(Int(32), a->name + ".extent." + std::to_string(dim), a->param);
    }
    const NamedArgument *a = find(arguments, m.key, false);
    if (!a || !(a->param.type().is_int() || a->param.type().is_uint())) {
        return Expr();
    }
    return Variable::make(a->param.type(), a->name, a->param);
}

}  // namespace

std::vector<MaximumRequirement> requirements_for(const std::vector<GivenMaximum> &maxima,
                                                 const std::vector<NamedArgument> &arguments) {
    std::vector<MaximumRequirement> out;
    for (const GivenMaximum &m : maxima) {
        Expr value = bounded_value(m, arguments);
        const std::string option = "harena.max." + m.key + "=" + std::to_string(m.value);
        if (!value.defined()) {
            throw CompileError("harena: " + option + " names no argument of the pipeline: expected " +
                               "harena.max.<scalar>=N for an integer scalar input or harena.max.<buffer>.<dim>=N "
                               "for a dimension's extent of a buffer input or output; this pipeline has " +
                               what_exists(arguments) + ".");
        }
        if (m.value < 0 || !value.type().can_represent(m.value)) {
            std::ostringstream msg;
            msg << "harena: " << option << ": the maximum must not be negative and must fit in "
                << value.type() << ", the type of what it bounds.";
            throw CompileError(msg.str());
        }
        out.push_back(MaximumRequirement{value <= make_const(value.type(), m.value),
                                         {StringImm::make(option + " (a maximum given when the pipeline was built)")}});
    }
    return out;
}

}  // namespace harena
