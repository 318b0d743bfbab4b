#include "graph/concurrent_kernels.h"

#include <cstdlib>
#include <cstring>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/cuda_driver.h"
#include "graph/kernel_order.h"
#include "graph/kernel_sources.h"

namespace harena::detail {

namespace {

using Edge = std::pair<CUgraphNode, CUgraphNode>;

// The region that `address` lies in: the arena's, else its allocation's
// first address; false where the driver does not know it.
bool region_of(const CudaDriver &d, uint64_t address, uint64_t arena_base, uint64_t arena_capacity,
               uint64_t *region) {
    if (address >= arena_base && address - arena_base < arena_capacity) {
        *region = arena_base;
        return true;
    }
    CUdeviceptr start = 0;
    if (d.pointer_get_attribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, static_cast<CUdeviceptr>(address)) !=
        CUDA_SUCCESS) {
        return false;
    }
    *region = static_cast<uint64_t>(start);
    return true;
}

// What a node touches, where it is a kernel whose PTX and parameters say.
NodeAccess access_of(const CudaDriver &d, uint64_t context, CUgraphNode node, uint64_t arena_base,
                     uint64_t arena_capacity) {
    NodeAccess access;
    CUgraphNodeType type;
    if (d.graph_node_get_type(node, &type) != CUDA_SUCCESS || type != CU_GRAPH_NODE_TYPE_KERNEL) {
        return access;
    }
    CUDA_KERNEL_NODE_PARAMS_v2 params;
    std::memset(&params, 0, sizeof(params));
    if (d.graph_kernel_node_get_params(node, &params) != CUDA_SUCCESS || params.func == nullptr ||
        params.kernelParams == nullptr) {
        return access;
    }
    PtxKernelAccess ptx;
    if (!kernel_access(context, params.func, &ptx)) {
        return access;
    }
    for (size_t i = 0; i < ptx.param_bytes.size(); i++) {
        if ((ptx.accessed >> i & 1) == 0) {
            continue;
        }
        if (ptx.param_bytes[i] != sizeof(uint64_t) || params.kernelParams[i] == nullptr) {
            return access;
        }
        uint64_t address;
        std::memcpy(&address, params.kernelParams[i], sizeof(address));
        if (address == 0) {
            continue;  // a buffer the call never reaches: a null address cannot be accessed
        }
        uint64_t region;
        if (!region_of(d, address, arena_base, arena_capacity, &region)) {
            return access;
        }
        access.touches.push_back(NodeAccess::Touch{region, (ptx.written >> i & 1) != 0});
    }
    access.known = true;
    return access;
}

// The nodes in an order the edges allow (Kahn's, ties in the driver's order);
// false where the edges name a node the graph does not list.
bool topological(const std::vector<CUgraphNode> &nodes, const std::vector<Edge> &edges,
                 std::vector<size_t> *order) {
    std::unordered_map<CUgraphNode, size_t> index;
    for (size_t i = 0; i < nodes.size(); i++) {
        index[nodes[i]] = i;
    }
    std::vector<std::vector<size_t>> after(nodes.size());
    std::vector<size_t> waiting(nodes.size(), 0);
    for (const Edge &e : edges) {
        const auto from = index.find(e.first), to = index.find(e.second);
        if (from == index.end() || to == index.end()) {
            return false;
        }
        after[from->second].push_back(to->second);
        waiting[to->second]++;
    }
    std::set<size_t> ready;
    for (size_t i = 0; i < nodes.size(); i++) {
        if (waiting[i] == 0) {
            ready.insert(i);
        }
    }
    while (!ready.empty()) {
        const size_t i = *ready.begin();
        ready.erase(ready.begin());
        order->push_back(i);
        for (size_t j : after[i]) {
            if (--waiting[j] == 0) {
                ready.insert(j);
            }
        }
    }
    return order->size() == nodes.size();
}

}  // namespace

bool side_by_side_enabled() {
    static const bool enabled = [] {
        const char *order = std::getenv("HARENA_GRAPH_KERNEL_ORDER");
        return order == nullptr || std::strcmp(order, "captured") != 0;
    }();
    return enabled;
}

size_t run_independent_kernels_side_by_side(void *graph_handle, uint64_t arena_base, uint64_t arena_capacity) {
    const CudaDriver *driver = cuda_driver();
    if (driver == nullptr || !driver->has_graph_editing()) {
        return 0;
    }
    const CudaDriver &d = *driver;
    auto graph = static_cast<CUgraph>(graph_handle);
    size_t count = 0;
    if (d.graph_get_nodes(graph, nullptr, &count) != CUDA_SUCCESS || count < 2) {
        return 0;
    }
    std::vector<CUgraphNode> nodes(count);
    if (d.graph_get_nodes(graph, nodes.data(), &count) != CUDA_SUCCESS || count != nodes.size()) {
        return 0;
    }
    size_t edge_count = 0;
    if (d.graph_get_edges(graph, nullptr, nullptr, &edge_count) != CUDA_SUCCESS) {
        return 0;  // among others, edges that carry data (CUDA_ERROR_LOSSY_QUERY): left as captured
    }
    std::vector<CUgraphNode> from(edge_count), to(edge_count);
    if (edge_count > 0 &&
        (d.graph_get_edges(graph, from.data(), to.data(), &edge_count) != CUDA_SUCCESS || edge_count != from.size())) {
        return 0;
    }
    std::vector<Edge> captured;
    for (size_t i = 0; i < edge_count; i++) {
        captured.emplace_back(from[i], to[i]);
    }
    std::vector<size_t> order;
    if (!topological(nodes, captured, &order)) {
        return 0;
    }
    CUcontext ctx = nullptr;
    if (d.ctx_get_current(&ctx) != CUDA_SUCCESS || ctx == nullptr) {
        return 0;
    }
    const uint64_t context = context_key(ctx);
    std::vector<NodeAccess> accesses;
    for (size_t i : order) {
        accesses.push_back(access_of(d, context, nodes[i], arena_base, arena_capacity));
    }
    const std::vector<std::vector<size_t>> deps = kernel_order_dependencies(accesses);
    std::set<Edge> wanted;
    for (size_t k = 0; k < order.size(); k++) {
        for (size_t j : deps[k]) {
            wanted.emplace(nodes[order[j]], nodes[order[k]]);
        }
    }
    const std::set<Edge> had(captured.begin(), captured.end());
    // Edges added first, all forward in the captured order: a failure leaves
    // the captured edges with some of the new ones, no less ordered.
    for (const Edge &e : wanted) {
        if (had.count(e) == 0 && d.graph_add_dependencies(graph, &e.first, &e.second, 1) != CUDA_SUCCESS) {
            return 0;
        }
    }
    size_t removed = 0;
    for (const Edge &e : had) {
        if (wanted.count(e) == 0) {
            if (d.graph_remove_dependencies(graph, &e.first, &e.second, 1) != CUDA_SUCCESS) {
                return removed;
            }
            removed++;
        }
    }
    return removed;
}

}  // namespace harena::detail
