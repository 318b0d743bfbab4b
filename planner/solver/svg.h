// A drawing of a plan for people: time on x, address on y, one rectangle
// per buffer (hover for its id, size, offset and lifetime), the lower bound
// as a dashed line and the arena size as a solid one.
#pragma once

#include <string>

#include "solver/problem.h"
#include "solver/solver.h"

namespace harena {

// A standalone SVG document. `plan` must match `problem` (one offset per
// buffer); zero-size buffers are not drawn.
std::string plan_svg(const Problem &, const Plan &, const std::string &title);

}  // namespace harena
