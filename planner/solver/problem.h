// The offset-planning problem: buffers with a lifetime and a size, to be given
// offsets in one arena so that buffers alive at the same time never share a
// byte. Plain data; nothing here knows about Halide.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace harena {

// One allocation request.
struct Buffer {
    std::string id;            // name (buffer name, or the CSV id); need not be unique
    int64_t begin = 0;         // first step it is live (inclusive)
    int64_t end = 0;           // first step it is dead (exclusive): half-open [begin, end)
    uint64_t size = 0;         // bytes (0 allowed: takes no space, gets offset 0)
    uint64_t alignment = 256;  // power of two; the offset must be a multiple of it
};

struct Problem {
    std::vector<Buffer> buffers;
};

// A malformed problem or input file. The message names the buffer (or the
// file and line) and what is wrong with it.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Largest arena a problem may need: every offset and end of a plan fits in
// int64_t, so Halide's signed 64-bit size expressions can hold it too.
constexpr uint64_t kMaxArenaBytes = uint64_t(INT64_MAX);

// Throws InputError unless every buffer has begin < end and a power-of-two
// alignment, and the sum over buffers of (size rounded up to its alignment,
// plus the alignment) is at most kMaxArenaBytes. That sum bounds any arena
// the solver can produce, so no offset computation can overflow. Duplicate
// ids are accepted: buffers are identified by position, ids only label them
// in messages (a pipeline may allocate the same Func in two places).
void check_problem(const Problem &);

// A bound no plan can beat: the maximum over time of the bytes that must be
// live at once. At each time every live offset is a multiple of the smallest
// live alignment a, so each live buffer but the topmost occupies its size
// rounded up to a; the topmost needs only its size. With equal alignments and
// sizes that are multiples of it, this is the plain peak of live sizes.
// Calls check_problem.
uint64_t lower_bound(const Problem &);

}  // namespace harena
