#pragma once
// The pass's two error channels, as Halide's own passes have them: a user's
// mistake is a Halide::CompileError whose message says what to change in the
// generator or its options; a broken invariant of the pass is a
// Halide::InternalError. Both are prefixed "harena: " and never end the
// process: the generator's main reports them and returns an error.
#include "Halide.h"

#include <string>

namespace harena {

[[noreturn]] inline void user_mistake(const std::string &message) {
    throw Halide::CompileError("harena: " + message);
}

[[noreturn]] inline void internal_failure(const std::string &message) {
    throw Halide::InternalError("harena: internal error: " + message);
}

}  // namespace harena
