#include "solver/lowest_first.h"

#include <algorithm>

#include "solver/skyline.h"

namespace harena::detail {

namespace {

// A binary min-heap whose top can be replaced in one sift, which is what
// requeueing a stale candidate needs. Keys pack (rank, position in order)
// so that one integer comparison orders them; the rank is the lowest offset
// plus the bias, shifted by 2^63 so that it is never negative (at most 65
// bits, so a key fits in 97).
class CandidateHeap {
public:
    using Key = unsigned __int128;
    static Key key(uint64_t offset, int64_t bias, uint32_t position) {
        Key rank = Key(offset) + (uint64_t(bias) ^ (uint64_t(1) << 63));
        return (rank << 32) | position;
    }
    static uint32_t position(Key k) {
        return uint32_t(k);
    }

    // Positions in increasing order already form a heap, and rank 0 is below
    // every candidate's: each key is corrected when it comes up.
    void reset(uint32_t n) {
        keys_.resize(n);
        for (uint32_t k = 0; k < n; k++)
            keys_[k] = k;
    }
    bool empty() const {
        return keys_.empty();
    }
    Key top() const {
        return keys_[0];
    }
    // The smaller child of the top, or the largest key when there is none.
    Key second() const {
        if (keys_.size() < 2) return ~Key(0);
        return keys_.size() < 3 ? keys_[1] : std::min(keys_[1], keys_[2]);
    }
    void pop() {
        keys_[0] = keys_.back();
        keys_.pop_back();
        if (!keys_.empty()) sift_down();
    }
    void replace_top(Key k) {
        keys_[0] = k;
        sift_down();
    }

private:
    void sift_down() {
        size_t i = 0, n = keys_.size();
        Key k = keys_[0];
        // Nodes with two children without a branch on which is smaller, since
        // that is a coin toss; the last node may have one.
        size_t c;
        for (; (c = 2 * i + 2) < n; i = c) {
            c -= keys_[c - 1] < keys_[c];
            if (!(keys_[c] < k)) break;
            keys_[i] = keys_[c];
        }
        if (c == n && keys_[n - 1] < k) {
            keys_[i] = keys_[n - 1];
            i = n - 1;
        }
        keys_[i] = k;
    }

    std::vector<Key> keys_;
};

}  // namespace

LowestFirst::LowestFirst(const Prepared &prepared, const std::vector<uint32_t> &order, uint32_t first,
                         const std::vector<uint64_t> &floor)
    : order_(order) {
    const uint32_t n = uint32_t(order.size());
    const uint32_t sections = uint32_t(floor.size());
    candidates_.resize(n);
    for (uint32_t k = 0; k < n; k++) {
        const Item &item = prepared.items[order[k]];
        candidates_[k] = {item.begin - first, item.end - first, item.size, item.alignment, 0};
    }
    start_level_.resize(n);
    {
        Skyline skyline(floor);
        for (uint32_t k = 0; k < n; k++)
            start_level_[k] = skyline.max(candidates_[k].begin, candidates_[k].end);
    }
    while (leaves_ < sections)
        leaves_ *= 2;
    node_start_.assign(2 * size_t(leaves_) + 1, 0);
    auto for_each_node = [&](const Candidate &c, auto &&visit) {
        for (uint32_t l = c.begin + leaves_, r = c.end + leaves_; l < r; l >>= 1, r >>= 1) {
            if (l & 1) visit(l++);
            if (r & 1) visit(--r);
        }
    };
    for (const Candidate &c : candidates_)
        for_each_node(c, [&](uint32_t v) { node_start_[v + 1]++; });
    for (size_t v = 0; v < 2 * size_t(leaves_); v++)
        node_start_[v + 1] += node_start_[v];
    covering_.resize(node_start_.back());
    {
        std::vector<uint32_t> fill(node_start_.begin(), node_start_.end() - 1);
        for (uint32_t k = 0; k < n; k++)
            for_each_node(candidates_[k], [&](uint32_t v) { covering_[fill[v]++] = k; });
    }
    begin_start_.assign(size_t(sections) + 1, 0);
    by_begin_.resize(n);
    for (const Candidate &c : candidates_)
        begin_start_[c.begin + 1]++;
    for (uint32_t t = 0; t < sections; t++)
        begin_start_[t + 1] += begin_start_[t];
    {
        std::vector<uint32_t> fill(begin_start_.begin(), begin_start_.end() - 1);
        for (uint32_t k = 0; k < n; k++)
            by_begin_[fill[candidates_[k].begin]++] = k;
    }
}

uint64_t LowestFirst::run(std::vector<uint64_t> &offsets, const std::vector<int64_t> &bias, uint64_t give_up_at,
                          const LowestFirstLimits &limits) {
    const uint32_t n = uint32_t(candidates_.size());
    for (uint32_t k = 0; k < n; k++)
        candidates_[k].bias = bias.empty() ? 0 : bias[order_[k]];
    std::vector<uint64_t> &level = level_;
    level = start_level_;
    CandidateHeap heap;
    heap.reset(n);
    uint64_t top_of_all = 0;
    placed_ = 0;
    work_ = 0;
    while (!heap.empty()) {
        CandidateHeap::Key top = heap.top();
        uint32_t k = CandidateHeap::position(top);
        const Candidate &c = candidates_[k];
        uint64_t lowest = align_up(level[k], c.alignment);
        CandidateHeap::Key current = CandidateHeap::key(lowest, c.bias, k);
        work_++;
        if (current > top && heap.second() < current) {
            heap.replace_top(current);
            continue;
        }
        heap.pop();
        placed_++;
        offsets[order_[k]] = lowest;
        const uint64_t placed_top = lowest + c.size;
        top_of_all = std::max(top_of_all, placed_top);
        if (top_of_all >= give_up_at || out_of_limits(limits)) break;
        work_ += raise(c, placed_top);
    }
    return placed_ == n ? top_of_all : std::max(top_of_all, give_up_at);
}

bool LowestFirst::out_of_limits(const LowestFirstLimits &limits) {
    return work_ > limits.work;
}

uint64_t LowestFirst::raise(const Candidate &c, uint64_t placed_top) {
    std::vector<uint64_t> &level = level_;
    uint64_t raised = 0;
    // Placed candidates are raised too: cheaper than telling them apart.
    for (uint32_t v = c.begin + leaves_; v >= 1; v >>= 1) {
        raised += node_start_[v + 1] - node_start_[v];
        for (uint32_t j = node_start_[v]; j < node_start_[v + 1]; j++) {
            level[covering_[j]] = std::max(level[covering_[j]], placed_top);
        }
    }
    raised += begin_start_[c.end] - begin_start_[c.begin + 1];
    for (uint32_t j = begin_start_[c.begin + 1]; j < begin_start_[c.end]; j++) {
        level[by_begin_[j]] = std::max(level[by_begin_[j]], placed_top);
    }
    return raised;
}

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets,
                      const std::vector<int64_t> &bias, uint64_t give_up_at, const LowestFirstLimits &limits) {
    offsets.resize(prepared.items.size());
    LowestFirst pass(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0));
    return pass.run(offsets, bias, give_up_at, limits);
}

}  // namespace harena::detail
