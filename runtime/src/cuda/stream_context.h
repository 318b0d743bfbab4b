// The context of an arena's stream, current while the runtime's stream and
// graph calls run (cuda/binding.cpp), and the arena whose stream the CUDA
// hooks give pipelines that do not pass it (cuda/abi.cpp).
#pragma once

#include "cuda/state.h"
#include "current_context.h"

struct harena_arena;

namespace harena::detail {

// Makes the context of the binding's stream current while alive, as the
// driver's stream and graph calls want (nothing when it is not known).
class StreamContextScope {
public:
    explicit StreamContextScope(const CudaBinding &cuda);

private:
    CurrentContext current_;
};

// While alive, Halide's CUDA hooks answer calls on this thread whose
// user_context is not an arena (a pipeline built without the arena feature
// passes its own, or NULL) with `arena`'s context and stream: the graph
// cache runs such pipelines on the arena's stream, where their kernels are
// captured and ordered with the arena's copies. Nested ones restore the
// outer one.
class UnboundCallsOn {
public:
    explicit UnboundCallsOn(harena_arena &arena);
    ~UnboundCallsOn();
    UnboundCallsOn(const UnboundCallsOn &) = delete;
    UnboundCallsOn &operator=(const UnboundCallsOn &) = delete;

private:
    harena_arena *outer_;
};

}  // namespace harena::detail
