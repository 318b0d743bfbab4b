// The order a captured graph keeps among its nodes (runtime/src/graph/
// kernel_order.h): named cases, then random sequences checked against the
// rule itself, every conflicting pair ordered, nothing else waited for.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "graph/kernel_order.h"

using harena::detail::kernel_order_dependencies;
using harena::detail::NodeAccess;

namespace {

NodeAccess kernel(std::vector<NodeAccess::Touch> touches) {
    NodeAccess n;
    n.known = true;
    n.touches = std::move(touches);
    return n;
}

NodeAccess other() {
    return NodeAccess{};
}

using Deps = std::vector<std::vector<size_t>>;

constexpr uint64_t kInput = 0x1000, kLevel1 = 0x2000, kLevel2 = 0x3000, kLevel3 = 0x4000, kArena = 0x9000;

}  // namespace

TEST(KernelOrder, OutputsComputedFromOneInputRunSideBySide) {
    // mip_levels: three kernels, each reads the input and writes its level.
    const Deps deps = kernel_order_dependencies({kernel({{kInput, false}, {kLevel1, true}}),
                                                 kernel({{kInput, false}, {kLevel2, true}}),
                                                 kernel({{kInput, false}, {kLevel3, true}})});
    EXPECT_EQ(deps, (Deps{{}, {}, {}}));
}

TEST(KernelOrder, AChainThroughTheArenaStaysAChain) {
    const Deps deps = kernel_order_dependencies({kernel({{kInput, false}, {kArena, true}}),
                                                 kernel({{kArena, false}, {kArena, true}}),
                                                 kernel({{kArena, false}, {kLevel1, true}})});
    EXPECT_EQ(deps, (Deps{{}, {0}, {1}}));
}

TEST(KernelOrder, AWriteWaitsForTheReadsBeforeIt) {
    // Two readers of level1, then a kernel that overwrites it: it waits for
    // both readers, which waited for the first writer.
    const Deps deps = kernel_order_dependencies({kernel({{kLevel1, true}}), kernel({{kLevel1, false}, {kLevel2, true}}),
                                                 kernel({{kLevel1, false}, {kLevel3, true}}),
                                                 kernel({{kLevel1, true}})});
    EXPECT_EQ(deps, (Deps{{}, {0}, {0}, {1, 2}}));
}

TEST(KernelOrder, AnythingElseWaitsForAllAndIsWaitedForByAll) {
    // A copy between independent kernels, and the completion kernel last.
    const Deps deps = kernel_order_dependencies({kernel({{kInput, false}, {kLevel1, true}}),
                                                 kernel({{kInput, false}, {kLevel2, true}}), other(),
                                                 kernel({{kInput, false}, {kLevel3, true}}), kernel({{kLevel1, true}}),
                                                 other()});
    EXPECT_EQ(deps, (Deps{{}, {}, {0, 1}, {2}, {2}, {3, 4}}));
}

TEST(KernelOrder, AKernelThatTouchesNothingKnownWaitsForTheLastBarrierOnly) {
    const Deps deps = kernel_order_dependencies({other(), kernel({}), kernel({{kLevel1, true}})});
    EXPECT_EQ(deps, (Deps{{}, {0}, {0}}));
}

// Random sequences: node j must reach node i (i < j) through the lists
// whenever they conflict (a region both touch, one writing) or either is not
// known; and each list names only nodes that conflict with it, or a barrier.
TEST(KernelOrder, RandomSequencesKeepEveryConflictAndNothingElse) {
    std::mt19937 rng(7);
    for (int round = 0; round < 500; round++) {
        const size_t n = 1 + rng() % 24;
        std::vector<NodeAccess> nodes;
        for (size_t i = 0; i < n; i++) {
            if (rng() % 8 == 0) {
                nodes.push_back(other());
                continue;
            }
            std::vector<NodeAccess::Touch> touches;
            const size_t count = rng() % 4;
            for (size_t t = 0; t < count; t++) {
                touches.push_back({0x1000 * (1 + rng() % 5), rng() % 3 == 0});
            }
            nodes.push_back(kernel(touches));
        }
        const Deps deps = kernel_order_dependencies(nodes);
        ASSERT_EQ(deps.size(), n);
        auto conflict = [&](size_t i, size_t j) {
            if (!nodes[i].known || !nodes[j].known) {
                return true;
            }
            for (const auto &a : nodes[i].touches) {
                for (const auto &b : nodes[j].touches) {
                    if (a.region == b.region && (a.writes || b.writes)) {
                        return true;
                    }
                }
            }
            return false;
        };
        // reach[j][i]: j waits, directly or not, for i.
        std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
        for (size_t j = 0; j < n; j++) {
            for (size_t i : deps[j]) {
                ASSERT_LT(i, j);
                const bool barrier_between = [&] {
                    for (size_t b = i; b <= j; b++) {
                        if (!nodes[b].known) {
                            return true;
                        }
                    }
                    return false;
                }();
                EXPECT_TRUE(conflict(i, j) || barrier_between) << "round " << round << ": " << j << " waits for " << i;
                reach[j][i] = true;
                for (size_t k = 0; k < i; k++) {
                    reach[j][k] = reach[j][k] || reach[i][k];
                }
            }
        }
        for (size_t j = 0; j < n; j++) {
            for (size_t i = 0; i < j; i++) {
                if (conflict(i, j)) {
                    EXPECT_TRUE(reach[j][i]) << "round " << round << ": " << j << " runs beside " << i;
                }
            }
        }
    }
}
