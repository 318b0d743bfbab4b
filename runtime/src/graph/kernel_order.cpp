#include "graph/kernel_order.h"

#include <algorithm>
#include <unordered_map>

namespace harena::detail {

namespace {

// A region's last writer and the readers since, all after the last barrier.
struct RegionState {
    bool written = false;
    size_t writer = 0;
    std::vector<size_t> readers;
};

}  // namespace

std::vector<std::vector<size_t>> kernel_order_dependencies(const std::vector<NodeAccess> &nodes) {
    std::vector<std::vector<size_t>> deps(nodes.size());
    std::unordered_map<uint64_t, RegionState> regions;
    // Nodes no later node waits for yet: what a barrier waits for.
    std::vector<size_t> leaves;
    bool have_barrier = false;
    size_t barrier = 0;
    for (size_t i = 0; i < nodes.size(); i++) {
        std::vector<size_t> &wait = deps[i];
        if (!nodes[i].known) {
            wait = leaves;
            std::sort(wait.begin(), wait.end());
            regions.clear();
            leaves.assign(1, i);
            have_barrier = true;
            barrier = i;
            continue;
        }
        // One touch per region, writing where any of its touches writes.
        std::unordered_map<uint64_t, bool> touched;
        for (const NodeAccess::Touch &t : nodes[i].touches) {
            touched[t.region] = touched[t.region] || t.writes;
        }
        for (const auto &[region, writes] : touched) {
            const auto found = regions.find(region);
            if (found == regions.end()) {
                continue;
            }
            const RegionState &state = found->second;
            if (writes && !state.readers.empty()) {
                // The readers each waited for the writer before them.
                wait.insert(wait.end(), state.readers.begin(), state.readers.end());
            } else if (state.written) {
                wait.push_back(state.writer);
            }
        }
        if (wait.empty() && have_barrier) {
            wait.push_back(barrier);
        }
        std::sort(wait.begin(), wait.end());
        wait.erase(std::unique(wait.begin(), wait.end()), wait.end());
        for (const auto &[region, writes] : touched) {
            RegionState &state = regions[region];
            if (writes) {
                state.written = true;
                state.writer = i;
                state.readers.clear();
            } else {
                state.readers.push_back(i);
            }
        }
        leaves.erase(std::remove_if(leaves.begin(), leaves.end(),
                                    [&](size_t l) { return std::binary_search(wait.begin(), wait.end(), l); }),
                     leaves.end());
        leaves.push_back(i);
    }
    return deps;
}

}  // namespace harena::detail
