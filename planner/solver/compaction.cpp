#include "solver/compaction.h"

#include <algorithm>
#include <numeric>

namespace harena {

namespace {

bool alive_together(const Buffer &a, const Buffer &b) {
    return a.begin < b.end && b.begin < a.end;
}

// Buffers in increasing planned offset: every support comes before what it supports.
std::vector<size_t> bottom_up(const Plan &plan) {
    std::vector<size_t> order(plan.offsets.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return plan.offsets[a] < plan.offsets[b]; });
    return order;
}

}  // namespace

std::vector<std::vector<size_t>> supports(const Problem &problem, const Plan &plan) {
    const std::vector<Buffer> &bs = problem.buffers;
    std::vector<std::vector<size_t>> below(bs.size());
    for (size_t i = 0; i < bs.size(); i++) {
        for (size_t j = 0; j < bs.size(); j++) {
            if (j != i && bs[j].size > 0 && alive_together(bs[i], bs[j]) &&
                plan.offsets[j] + bs[j].size <= plan.offsets[i]) {
                below[i].push_back(j);
            }
        }
    }
    return below;
}

std::vector<uint64_t> compact_offsets(const Problem &problem, const Plan &plan, const std::vector<uint64_t> &sizes) {
    std::vector<std::vector<size_t>> below = supports(problem, plan);
    std::vector<uint64_t> offsets(sizes.size(), 0);
    for (size_t i : bottom_up(plan)) {
        uint64_t start = 0;
        for (size_t j : below[i]) {
            start = std::max(start, offsets[j] + sizes[j]);
        }
        const uint64_t a = problem.buffers[i].alignment;
        offsets[i] = (start + a - 1) / a * a;
    }
    return offsets;
}

}  // namespace harena
