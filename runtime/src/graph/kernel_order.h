// The order a captured graph's nodes need among themselves: what each node
// must wait for so that every two nodes that touch the same memory, one of
// them writing, still run in the order they were captured, and nothing else
// is ordered. Halide launches every kernel of a call on one stream, so a
// capture orders all of them; kernels that share no written memory (a
// pipeline's outputs computed from the same input, independent branches)
// then run side by side in the replay.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harena::detail {

// One node of the graph, in an order its captured edges allow.
struct NodeAccess {
    // False for anything but a kernel whose accesses are known (a copy, a
    // memset, an unknown kernel): such a node waits for every node before it
    // and every node after it waits for it.
    bool known = false;
    // The memory it touches: a region (an allocation's first address) and
    // whether it writes there.
    struct Touch {
        uint64_t region;
        bool writes;
    };
    std::vector<Touch> touches;
};

// For each node, the earlier nodes (indices into `nodes`) it must wait for,
// each list ascending; together they keep every read after the write before
// it, every write after the reads and the write before it, and every node
// that is not known in place.
std::vector<std::vector<size_t>> kernel_order_dependencies(const std::vector<NodeAccess> &nodes);

}  // namespace harena::detail
