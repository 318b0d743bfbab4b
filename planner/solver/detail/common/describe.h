// Internal to the solver: how messages name a buffer. The position is part of
// the name because ids need not be unique.
#pragma once

#include <string>

namespace harena {
struct Buffer;
}  // namespace harena

namespace harena::detail {

// "buffer 'conv1' (#3)"
std::string describe(const Buffer &, size_t index);

// "buffer 'conv1' (#3) live [4, 9) at bytes [512, 1536)"
std::string describe_placed(const Buffer &, size_t index, uint64_t offset);

}  // namespace harena::detail
