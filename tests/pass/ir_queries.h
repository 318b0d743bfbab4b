#pragma once
// Questions the pass tests ask of a statement.
#include "Halide.h"

#include <string>

namespace harena_test {

// Number of calls to `function` (extern or intrinsic name) in s.
int count_calls(const Halide::Internal::Stmt &s, const std::string &function);

// Number of register_destructor calls naming `destructor`.
int count_destructors(const Halide::Internal::Stmt &s, const std::string &destructor);

// The Allocate named `name` (the first one), or null.
const Halide::Internal::Allocate *find_allocate(const Halide::Internal::Stmt &s, const std::string &name);

// Statement text, for messages and substring checks.
std::string text_of(const Halide::Internal::Stmt &s);

}  // namespace harena_test
