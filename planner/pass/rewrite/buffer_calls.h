#pragma once
// The forms of Halide's lowered buffer calls that the rewrite recognizes and
// changes: calls on a buffer, destructors registered for one, and the
// _halide_buffer_init that creates one.
#include "types.h"

#include <functional>
#include <string>

namespace harena {

// `e` is a call of `function` whose first argument is the buffer object
// ("<name>.buffer") of a buffer in `buffers`.
bool is_call_on(const Halide::Expr &e, const std::string &function, const Halide::Internal::Scope<> &buffers);

// `e` registers `destructor` for the buffer object of a buffer in `buffers`.
bool is_destructor(const Halide::Expr &e, const std::string &destructor, const Halide::Internal::Scope<> &buffers);

// A buffer's creation, lets and all, with its _halide_buffer_init's device
// (argument 3) and device interface (argument 4) given by `bind`, which is
// handed Halide's own. Any other form is an internal error.
Halide::Expr with_device(const Halide::Expr &value,
                         const std::function<void(Halide::Expr &device, Halide::Expr &interface)> &bind);

}  // namespace harena
