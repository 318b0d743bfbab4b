// Internal to the solver: check_problem's test of one buffer, shared with the
// CSV reader so that it can report a bad buffer by file and line.
#pragma once

#include <cstdint>
#include <string>

namespace harena {
struct Buffer;
}  // namespace harena

namespace harena::detail {

// What is wrong with b, or "" if nothing. `total` is the bound on the arena
// the buffers before b may need; b's share is added to it when b is fine.
std::string check_buffer(const Buffer &b, uint64_t &total);

}  // namespace harena::detail
