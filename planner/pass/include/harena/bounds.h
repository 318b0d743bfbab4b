#pragma once
// Declaring worst-case sizes in a generator. The planner bounds every
// intermediate from what the pipeline asserts at entry: scalar Param/Input
// ranges, set_bounds/set_extent constraints and add_requirement conditions.
// Outputs usually need an explicit maximum; these helpers build the
// requirement, e.g. in schedule():
//     add_requirement(harena::extent_at_most(output, 4096));
#include "Halide.h"

namespace harena {

// Every dimension of `out` has extent <= max_extent.
template<typename OutputOrInput>
Halide::Expr extent_at_most(const OutputOrInput &out, int max_extent) {
    Halide::Expr all = Halide::Internal::const_true();
    for (int d = 0; d < out.dimensions(); d++) {
        all = all && (out.dim(d).extent() <= max_extent);
    }
    return all;
}

// Dimension `dim` of `out` has extent <= max_extent.
template<typename OutputOrInput>
Halide::Expr extent_at_most(const OutputOrInput &out, int dim, int max_extent) {
    return out.dim(dim).extent() <= max_extent;
}

}  // namespace harena
