#pragma once
// Maxima given when a generator is built rather than in its source:
// harena.max.<scalar>=N bounds a scalar input, harena.max.<buffer>.<dim>=N the
// extent of a buffer input's or output's dimension. Each becomes a
// requirement of the pipeline, so it bounds the plan exactly as a maximum
// declared in the generator does, and a call beyond it fails Halide's
// requirement check, naming the option, before any stage runs.
#include "halide_compat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace harena {

struct GivenMaximum {
    std::string key;  // what follows "harena.max.": "levels", "input.0"
    int64_t value = 0;
};

// A pipeline argument a maximum can name: a scalar input, or a buffer input
// or output (Parameter::is_buffer()).
struct NamedArgument {
    std::string name;
    Parameter param;
};

// A condition for Pipeline::add_requirement and its message.
struct MaximumRequirement {
    Halide::Expr condition;
    std::vector<Halide::Expr> message;
};

// One requirement per maximum. Throws Halide::CompileError for a key that
// names no argument (or no dimension of it), listing the names that exist,
// and for a value that what it bounds cannot hold.
std::vector<MaximumRequirement> requirements_for(const std::vector<GivenMaximum> &maxima,
                                                 const std::vector<NamedArgument> &arguments);

}  // namespace harena
