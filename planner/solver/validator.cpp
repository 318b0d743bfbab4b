#include "solver/validator.h"

#include <algorithm>

#include "solver/detail/common/describe.h"

namespace harena {

namespace {

Validation fail(std::string error) {
    return {false, std::move(error)};
}

}  // namespace

Validation validate(const Problem &problem, const Plan &plan) {
    const std::vector<Buffer> &buffers = problem.buffers;
    if (plan.offsets.size() != buffers.size()) {
        return fail("plan has " + std::to_string(plan.offsets.size()) + " offsets for " +
                    std::to_string(buffers.size()) + " buffers");
    }

    uint64_t highest_end = 0;
    for (size_t i = 0; i < buffers.size(); i++) {
        const Buffer &b = buffers[i];
        uint64_t offset = plan.offsets[i];
        if (b.alignment == 0 || offset % b.alignment != 0) {
            return fail(detail::describe_placed(b, i, offset) + " is not aligned to " + std::to_string(b.alignment));
        }
        if (offset > plan.arena_bytes || b.size > plan.arena_bytes - offset) {
            return fail(detail::describe_placed(b, i, offset) + " lies outside the arena of " +
                        std::to_string(plan.arena_bytes) + " bytes");
        }
        highest_end = std::max(highest_end, offset + b.size);
    }
    if (highest_end != plan.arena_bytes) {
        return fail("arena_bytes is " + std::to_string(plan.arena_bytes) + " but the highest buffer ends at byte " +
                    std::to_string(highest_end));
    }

    // Lifetimes and byte ranges side by side, sorted by begin: the pairwise
    // loop below then reads consecutive memory, which matters when millions
    // of pairs are alive together.
    struct Span {
        int64_t begin, end;
        uint64_t lo, hi;
        size_t index;
    };
    std::vector<Span> spans;
    for (size_t i = 0; i < buffers.size(); i++) {
        if (buffers[i].size > 0) {
            spans.push_back({buffers[i].begin, buffers[i].end, plan.offsets[i], plan.offsets[i] + buffers[i].size, i});
        }
    }
    std::stable_sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.begin < b.begin; });
    for (size_t x = 0; x < spans.size(); x++) {
        const Span &a = spans[x];
        // Every later span begins at or after a.begin, so it is alive together
        // with a exactly when it begins before a.end.
        for (size_t y = x + 1; y < spans.size() && spans[y].begin < a.end; y++) {
            const Span &b = spans[y];
            if (a.lo < b.hi && b.lo < a.hi) {
                return fail(detail::describe_placed(buffers[a.index], a.index, a.lo) + " overlaps " +
                            detail::describe_placed(buffers[b.index], b.index, b.lo));
            }
        }
    }
    return {};
}

}  // namespace harena
