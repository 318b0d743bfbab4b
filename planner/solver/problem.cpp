#include "solver/problem.h"

#include "solver/detail/common/check.h"
#include "solver/detail/common/describe.h"
#include "solver/detail/common/prepared.h"

namespace harena {

namespace detail {

std::string check_buffer(const Buffer &b, uint64_t &total) {
    if (b.begin >= b.end) {
        return "lifetime [" + std::to_string(b.begin) + ", " + std::to_string(b.end) +
               ") is empty; it is half-open, so a buffer used only at step t has [t, t+1)";
    }
    if (b.alignment == 0 || (b.alignment & (b.alignment - 1)) != 0) {
        return "alignment " + std::to_string(b.alignment) + " is not a power of two";
    }
    // One term at a time, so that no sum itself can wrap.
    uint64_t room = kMaxArenaBytes - total;
    if (b.alignment > room || b.size > room - b.alignment || align_up(b.size, b.alignment) + b.alignment > room) {
        return "size " + std::to_string(b.size) + " with alignment " + std::to_string(b.alignment) +
               " could make the arena exceed 2^63 - 1 bytes, together with the " + std::to_string(total) +
               " bytes the buffers before it may need";
    }
    total += align_up(b.size, b.alignment) + b.alignment;
    return "";
}

}  // namespace detail

void check_problem(const Problem &problem) {
    // Ranks of begin/end values are 32-bit in the solver.
    if (problem.buffers.size() > (uint64_t(1) << 30)) {
        throw InputError("problem has " + std::to_string(problem.buffers.size()) +
                         " buffers; at most 2^30 are supported");
    }
    uint64_t total = 0;
    for (size_t i = 0; i < problem.buffers.size(); i++) {
        std::string wrong = detail::check_buffer(problem.buffers[i], total);
        if (!wrong.empty()) throw InputError(detail::describe(problem.buffers[i], i) + ": " + wrong);
    }
}

uint64_t lower_bound(const Problem &problem) {
    check_problem(problem);
    return detail::lower_bound(detail::prepare(problem));
}

}  // namespace harena
