#include "solver/detail/common/describe.h"

#include <cstdint>

#include "solver/problem.h"

namespace harena::detail {

std::string describe(const Buffer &b, size_t index) {
    return "buffer '" + b.id + "' (#" + std::to_string(index) + ")";
}

std::string describe_placed(const Buffer &b, size_t index, uint64_t offset) {
    // Plans under validation may come from anywhere, so the end may not fit.
    std::string last = offset > UINT64_MAX - b.size ? std::to_string(offset) + " + " + std::to_string(b.size) : std::to_string(offset + b.size);
    return describe(b, index) + " live [" + std::to_string(b.begin) + ", " + std::to_string(b.end) +
           ") at bytes [" + std::to_string(offset) + ", " + last + ")";
}

}  // namespace harena::detail
