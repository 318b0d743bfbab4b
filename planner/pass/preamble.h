#pragma once
// The preamble of a lowered pipeline: the argument lets and the asserts that
// run before any intermediate exists. It gives the bounds every worst-case size
// is derived from.
#include "halide_compat.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace harena {

struct Preamble {
    // Bounds of the variables the preamble defines or constrains (argument
    // fields like output.extent.0, scalar params, lets over them).
    Halide::Internal::Scope<Halide::Internal::Interval> bounds;
    // Names whose lower bound in `bounds` rests on an argument buffer's extent
    // being taken as never negative, which the preamble does not check: it
    // may bound a size, but no form that is exact only above it may use it.
    std::set<std::string> assumed_minimum;
    // Names defined by lets in the preamble: visible where the frame opens.
    std::set<std::string> visible;
    // Their definitions, for tracing an unbounded size to the argument or
    // parameter that leaves it unbounded.
    std::map<std::string, Halide::Expr> definitions;
    // The same lets in program order, and the scalar parameters the statement
    // refers to: what representative bounds are recomputed from.
    std::vector<std::pair<std::string, Halide::Expr>> lets;
    std::map<std::string, Parameter> scalars;
    // The bounds above with a representative value for every argument field
    // and scalar parameter that has no declared bound (representative.h).
    Halide::Internal::Scope<Halide::Internal::Interval> representative;
    struct Assumption {
        double value = 0;    // an integer but for floating-point scalars
        std::string source;  // where the value comes from, for messages
    };
    // The representative values taken, by name.
    std::map<std::string, Assumption> assumed;
    // Every name whose representative bounds are a single value, as that
    // constant: scalars and argument fields, and the lets that fold to a
    // constant once those are substituted. Interval arithmetic loses a size
    // computed through floating point (a grid cell from ceil(w / s_sigma),
    // a loop bound from floor(x / t)); evaluating it at these points does not.
    std::map<std::string, Halide::Expr> points;
};

// A bound's value where it is a constant, as it stands or once simplified;
// none where that side is unbounded or not constant.
std::optional<int64_t> constant_max(const Halide::Internal::Interval &i);
std::optional<int64_t> constant_min(const Halide::Internal::Interval &i);

// Reads the preamble of `s`.
Preamble read_preamble(const Halide::Internal::Stmt &s);

// `if (!(bounds query || ...)) { the pipeline }`, with no else: the branch of
// a lowered pipeline that runs it (the bounds-query side only fills in shapes).
bool is_pipeline_branch(const Halide::Internal::IfThenElse *op);

}  // namespace harena
