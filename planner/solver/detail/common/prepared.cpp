#include "solver/detail/common/prepared.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "solver/problem.h"

namespace harena::detail {

Prepared prepare(const Problem &problem) {
    std::vector<int64_t> times;
    for (const Buffer &b : problem.buffers) {
        if (b.size == 0) continue;
        times.push_back(b.begin);
        times.push_back(b.end);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    auto rank = [&](int64_t t) {
        return uint32_t(std::lower_bound(times.begin(), times.end(), t) - times.begin());
    };

    Prepared prepared;
    prepared.points = uint32_t(times.size());
    for (size_t i = 0; i < problem.buffers.size(); i++) {
        const Buffer &b = problem.buffers[i];
        if (b.size == 0) continue;
        prepared.items.push_back(
            {rank(b.begin), rank(b.end), b.size, b.alignment, uint64_t(b.end) - uint64_t(b.begin), uint32_t(i)});
    }
    return prepared;
}

namespace {

int log2_of(uint64_t power_of_two) {
    return __builtin_ctzll(power_of_two);
}

// The largest of a changing multiset of rounding slacks (each below the
// class's alignment). Small alignments, the usual case, count each value in
// an array and find the largest by walking down from the last one, which
// rarely moves far; larger ones use a tree.
class MaxSlack {
public:
    explicit MaxSlack(uint64_t alignment) {
        if (alignment <= kCountedUpTo) counts_.assign(alignment, 0);
    }
    void insert(uint64_t slack) {
        if (counts_.empty()) {
            tree_.insert(slack);
            return;
        }
        counts_[slack]++;
        if (size_++ == 0 || slack > max_) max_ = slack;
    }
    void erase(uint64_t slack) {
        if (counts_.empty()) {
            tree_.erase(tree_.find(slack));
            return;
        }
        counts_[slack]--;
        if (--size_ > 0) {
            while (counts_[max_] == 0)
                max_--;
        }
    }
    uint64_t max() const {
        return counts_.empty() ? *tree_.rbegin() : max_;
    }

private:
    static constexpr uint64_t kCountedUpTo = 1 << 16;
    std::vector<uint32_t> counts_;
    uint64_t size_ = 0, max_ = 0;
    std::multiset<uint64_t> tree_;
};

// The live set of one alignment class: the sum of sizes rounded up to that
// alignment and the rounding slack of each member, so that the bound for a
// section whose smallest live alignment is this class is sum - max slack.
struct AlignmentClass {
    explicit AlignmentClass(uint64_t alignment)
        : alignment(alignment), slacks(alignment) {
    }
    uint64_t alignment;
    uint64_t members = 0;  // live items whose own alignment is this one
    uint64_t sum = 0;      // over all live items, sizes rounded up to `alignment`
    MaxSlack slacks;
};

}  // namespace

uint64_t lower_bound(const Prepared &prepared) {
    // Only alignments that occur matter (usually just one), and any of them may
    // be the smallest live one at some time, so each keeps sums over all items.
    // A class coarser than some live item's own alignment may wrap around, but
    // it is read only while it is the smallest live one, and then its sum is
    // at most check_problem's bound: unsigned arithmetic makes it exact.
    std::map<int, AlignmentClass> classes;
    for (const Item &item : prepared.items)
        classes.try_emplace(log2_of(item.alignment), item.alignment);

    // Items by the point where they start and by the one where they end, as
    // flat lists (a counting sort by point).
    const uint32_t n = uint32_t(prepared.items.size());
    std::vector<uint32_t> start_at(size_t(prepared.points) + 1, 0), end_at(size_t(prepared.points) + 1, 0);
    for (const Item &item : prepared.items) {
        start_at[item.begin + 1]++;
        end_at[item.end + 1]++;
    }
    for (uint32_t t = 0; t < prepared.points; t++) {
        start_at[t + 1] += start_at[t];
        end_at[t + 1] += end_at[t];
    }
    std::vector<uint32_t> starts(n), ends(n);
    {
        std::vector<uint32_t> s(start_at.begin(), start_at.end() - 1), e(end_at.begin(), end_at.end() - 1);
        for (uint32_t i = 0; i < n; i++) {
            starts[s[prepared.items[i].begin]++] = i;
            ends[e[prepared.items[i].end]++] = i;
        }
    }

    uint64_t bound = 0;
    for (uint32_t t = 0; t < prepared.points; t++) {
        for (uint32_t k = end_at[t]; k < end_at[t + 1]; k++) {
            const Item &item = prepared.items[ends[k]];
            for (auto &[log2, c] : classes) {
                uint64_t rounded = align_up(item.size, c.alignment);
                c.sum -= rounded;
                c.slacks.erase(rounded - item.size);
                if (log2 == log2_of(item.alignment)) c.members--;
            }
        }
        for (uint32_t k = start_at[t]; k < start_at[t + 1]; k++) {
            const Item &item = prepared.items[starts[k]];
            for (auto &[log2, c] : classes) {
                uint64_t rounded = align_up(item.size, c.alignment);
                c.sum += rounded;
                c.slacks.insert(rounded - item.size);
                if (log2 == log2_of(item.alignment)) c.members++;
            }
        }
        for (const auto &[log2, c] : classes) {
            if (c.members == 0) continue;
            bound = std::max(bound, c.sum - c.slacks.max());
            break;  // the smallest live alignment decides
        }
    }
    return bound;
}

std::vector<std::vector<uint32_t>> overlaps_of(const std::vector<Item> &items) {
    std::vector<std::vector<uint32_t>> overlaps(items.size());
    std::vector<uint32_t> by_begin(items.size());
    std::iota(by_begin.begin(), by_begin.end(), 0);
    std::sort(by_begin.begin(), by_begin.end(), [&](uint32_t a, uint32_t b) { return items[a].begin < items[b].begin; });
    for (size_t x = 0; x < by_begin.size(); x++) {
        uint32_t i = by_begin[x];
        for (size_t y = x + 1; y < by_begin.size() && items[by_begin[y]].begin < items[i].end; y++) {
            overlaps[i].push_back(by_begin[y]);
            overlaps[by_begin[y]].push_back(i);
        }
    }
    return overlaps;
}

}  // namespace harena::detail
