// Lets the kernels of a captured graph that share no written memory run side
// by side (kernel_order.h), before the graph is instantiated.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harena::detail {

// Reorders `graph`'s edges where the driver can describe every node (its
// context current). A kernel's memory is known from its PTX
// (kernel_sources.h) and its parameters; a region is the arena's region
// [arena_base, arena_base + arena_capacity) or another allocation's (the
// driver's range of the address). Every other node keeps its place before
// and after all the rest. On any failure the graph keeps its captured order,
// or gains edges only. The number of captured edges removed.
size_t run_independent_kernels_side_by_side(void *graph, uint64_t arena_base, uint64_t arena_capacity);

// False where HARENA_GRAPH_KERNEL_ORDER=captured asks that replays keep the
// captured order (the comparison the benchmarks print).
bool side_by_side_enabled();

}  // namespace harena::detail
