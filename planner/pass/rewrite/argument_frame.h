#pragma once
// Opens a planned pipeline's frame in its arena argument
// (PassOptions::arena_argument): the caller's uint8 buffer is the arena of
// the call. A call that needs more bytes than the buffer holds fails through
// Halide's error channel before any planned buffer is used, naming the
// argument and both sizes.
#include "rewrite/open_frame.h"

#include <string>

namespace harena {

struct ArgumentFrame {
    std::string pipeline;           // for messages
    std::string argument;           // the buffer input that is the arena
    Halide::Expr device_interface;  // of the planned buffers (device plans)
    bool device_target = false;     // device plans lie in the buffer's device memory, host plans in its host memory
};

// `s` with the frame based in the argument's memory, opened where open_frame
// would open the arena's. A device plan's buffer without device memory gets
// it (halide_device_malloc, kept by the buffer as an output's is); the
// frame's base is then that memory, its size the buffer's extent.
Halide::Internal::Stmt open_argument_frame(const Halide::Internal::Stmt &s,
                                           const std::map<const Halide::Internal::IRNode *, Placement> &placed,
                                           const RunLayout &layout, const ArgumentFrame &frame);

}  // namespace harena
