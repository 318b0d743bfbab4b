// Internal to the solver: the problem in the form the algorithms work on.
// Times are replaced by their rank among all begin/end values, so lifetimes
// index arrays directly; zero-size buffers are left out since they take no
// space and conflict with nothing.
#pragma once

#include <cstdint>
#include <vector>

namespace harena {
struct Problem;
}  // namespace harena

namespace harena::detail {

struct Item {
    uint32_t begin = 0;  // rank of Buffer::begin
    uint32_t end = 0;    // rank of Buffer::end; the item lives in sections [begin, end)
    uint64_t size = 0;
    uint64_t alignment = 1;
    uint64_t length = 0;  // Buffer::end - Buffer::begin, in steps
    uint32_t index = 0;   // position in Problem::buffers
};

struct Prepared {
    std::vector<Item> items;
    // Number of distinct time values; section t is the time span between the
    // t-th and (t+1)-th of them, so there are points - 1 sections.
    uint32_t points = 0;
};

// A plan for the items, and the order a pass placed them in.
struct Incumbent {
    std::vector<uint32_t> order;    // indices into items
    std::vector<uint64_t> offsets;  // indexed like items
    uint64_t arena = UINT64_MAX;
};

// Expects a problem that passed check_problem.
Prepared prepare(const Problem &);

// lower_bound() on a prepared problem.
uint64_t lower_bound(const Prepared &);

// For each item, the items whose lifetimes overlap its own.
std::vector<std::vector<uint32_t>> overlaps_of(const std::vector<Item> &items);

inline uint64_t align_up(uint64_t x, uint64_t alignment) {
    return (x + alignment - 1) & ~(alignment - 1);
}

}  // namespace harena::detail
