#pragma once
// The names an expression reads from outside itself.
#include "Halide.h"

#include <string>
#include <vector>

namespace harena {

// The names `e` reads that it does not bind itself (in a Let), in the order
// they first appear.
std::vector<std::string> free_names(const Halide::Expr &e);

}  // namespace harena
