// Internal to the exact search: the unplaced buffers of a partial plan,
// split where no unplaced buffer is alive across a time step.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/detail/common/prepared.h"

namespace harena::detail {

// Unplaced buffers whose lifetimes chain together, and the sections they
// span; separate partitions share no time and so can be solved one by one.
struct Partition {
    std::vector<uint32_t> items;
    uint32_t first = 0, last = 0;  // sections [first, last)
};

// The items of `p` not yet placed (placed[i] != 0 for those that are),
// grouped into partitions in order of their first section.
std::vector<Partition> unplaced_partitions(const std::vector<Item> &items, const std::vector<uint8_t> &placed,
                                           const Partition &p);

}  // namespace harena::detail
