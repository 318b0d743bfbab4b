#pragma once
// Routes the device allocations a pipeline makes for its argument buffers
// (halide_copy_to_device of an input, halide_device_malloc of an output) to
// harena_argument_*, which keep them out of the call's frame: the caller
// keeps those buffers after the call, and the frame pops when it returns.
#include "Halide.h"

namespace harena {

Halide::Internal::Stmt route_argument_buffers(const Halide::Internal::Stmt &s);

}  // namespace harena
