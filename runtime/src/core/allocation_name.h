// What an allocation is called in messages: a caller's name, a buffer's
// shape, or nothing. Formatted only when a message or a debug record needs it.
#pragma once

#include <string>

#include "HalideRuntime.h"

namespace harena::detail {

struct AllocationName {
    const char *name = nullptr;
    const halide_buffer_t *buffer = nullptr;

    bool known() const {
        return name != nullptr || buffer != nullptr;
    }
    std::string text() const;
};

}  // namespace harena::detail
