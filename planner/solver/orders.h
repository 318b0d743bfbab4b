// Internal to the solver: the static orders tried by the best-fit pass.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/prepared.h"
#include "solver/solver.h"

namespace harena::detail {

// For each item, the highest total of live sizes in any section of its
// lifetime: items alive at the busiest time come first in PressureDesc and
// are the ones the exact search must settle first.
std::vector<uint64_t> peak_pressure(const Prepared &);

// A permutation of item indices; `pressure` is only read for PressureDesc.
std::vector<uint32_t> make_order(const Prepared &, Order, const std::vector<uint64_t> &pressure);

}  // namespace harena::detail
