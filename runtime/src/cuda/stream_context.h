// The context of an arena's stream, current while the runtime's stream and
// graph calls run (cuda/binding.cpp).
#pragma once

#include "cuda/state.h"
#include "current_context.h"

namespace harena::detail {

// Makes the context of the binding's stream current while alive, as the
// driver's stream and graph calls want (nothing when it is not known).
class StreamContextScope {
public:
    explicit StreamContextScope(const CudaBinding &cuda);

private:
    CurrentContext current_;
};

}  // namespace harena::detail
