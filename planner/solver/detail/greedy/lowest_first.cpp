#include "solver/detail/greedy/lowest_first.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "solver/detail/greedy/skyline.h"

namespace harena::detail {

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

    // Keys in increasing order already form a heap.
    void reset(std::vector<Key> sorted) {
        keys_ = std::move(sorted);
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
    void push(Key k) {
        size_t i = keys_.size();
        keys_.push_back(k);
        for (; i > 0 && k < keys_[(i - 1) / 2]; i = (i - 1) / 2)
            keys_[i] = keys_[(i - 1) / 2];
        keys_[i] = k;
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

LowestFirst::LowestFirst(const Prepared &prepared, const std::vector<uint32_t> &order, uint32_t first,
                         const std::vector<uint64_t> &floor)
    : order_(order), floor_(floor) {
    const uint32_t n = uint32_t(order.size());
    candidates_.resize(n);
    for (uint32_t k = 0; k < n; k++) {
        const Item &item = prepared.items[order[k]];
        candidates_[k] = {item.begin - first, item.end - first, item.size, item.alignment, 0};
    }
    make_bundles();
    Skyline skyline(floor);
    start_level_.resize(n);
    for (uint32_t k = 0; k < n; k++)
        start_level_[k] = skyline.max(candidates_[k].begin, candidates_[k].end);
    for (Bundle &bundle : bundles_)
        bundle.start_level = skyline.max(bundle.core_begin, bundle.core_end);
}

// A buffer alive for at least kMinBundled sections goes into a bundle with
// the buffers of its alignment that begin in the same bin and end in the
// same bin, the sections cut into bins of the largest power-of-two width w
// with 2w at most its length. Each member's lifetime then reaches less than
// w beyond the core at either end, and the core is rarely lower than a
// member's whole lifetime (where it is, the member leaves the bundle);
// wider bins make fewer bundles, each checked once per rise of its core.
// Shorter buffers come up stale rarely and are queued on their own.
void LowestFirst::make_bundles() {
    std::map<std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>, uint32_t> index;
    start_bundle_of_.assign(candidates_.size(), kAlone);
    for (uint32_t k = 0; k < candidates_.size(); k++) {
        const Candidate &c = candidates_[k];
        const uint32_t length = c.end - c.begin;
        if (length < kMinBundled) continue;
        uint32_t width = 1;
        while (width * 4 <= length)
            width *= 2;
        const uint32_t begin_bin = c.begin / width, end_bin = (c.end - 1) / width;
        auto [it, added] =
            index.emplace(std::make_tuple(c.alignment, width, begin_bin, end_bin), uint32_t(bundles_.size()));
        if (added) bundles_.push_back({c.begin, c.end, c.alignment, 0, {}, 0});
        Bundle &bundle = bundles_[it->second];
        bundle.core_begin = std::max(bundle.core_begin, c.begin);
        bundle.core_end = std::min(bundle.core_end, c.end);
        bundle.members.push_back(k);
        start_bundle_of_[k] = it->second;
    }
}

uint64_t LowestFirst::run(std::vector<uint64_t> &offsets, const std::vector<int64_t> &bias, uint64_t give_up_at,
                          const LowestFirstLimits &limits) {
    const uint32_t n = uint32_t(candidates_.size());
    for (uint32_t k = 0; k < n; k++)
        candidates_[k].bias = bias.empty() ? 0 : bias[order_[k]];
    bundle_of_ = start_bundle_of_;
    CandidateHeap heap;
    queue_all(heap);
    Skyline skyline(floor_);
    uint64_t top_of_all = 0;
    placed_ = 0;
    work_ = 0;
    fell_behind_ = false;
    // The work at the next pace check (none when it is 0).
    uint64_t pace_check = limits.pace / 32;
    while (!heap.empty()) {
        const CandidateHeap::Key top = heap.top();
        const uint32_t k = CandidateHeap::position(top);
        work_++;
        if (work_ == pace_check) {
            if (!on_pace(limits.pace)) {
                fell_behind_ = true;
                break;
            }
            pace_check = pace_check * 2 <= limits.pace / 2 ? pace_check * 2 : 0;
        }
        uint64_t lowest = 0;
        const bool due = bundle_of_[k] != kAlone ? take_bundled(top, heap, skyline, lowest) :
                                                   take_alone(top, heap, skyline, lowest);
        if (!due) continue;
        place(k, lowest, skyline, offsets, top_of_all);
        if (top_of_all >= give_up_at || work_ > limits.work) break;
    }
    return placed_ == n ? top_of_all : std::max(top_of_all, give_up_at);
}

bool LowestFirst::on_pace(uint64_t pace) const {
    // placed / items >= work / pace, in integers of up to 32 + 64 bits.
    return (unsigned __int128)placed_ * pace >= (unsigned __int128)work_ * candidates_.size();
}

// Keyed by their lowest offsets on the floor; a bundle is queued as its
// first member.
void LowestFirst::queue_all(CandidateHeap &heap) {
    std::vector<CandidateHeap::Key> keys;
    for (uint32_t k = 0; k < candidates_.size(); k++) {
        const Candidate &c = candidates_[k];
        if (bundle_of_[k] == kAlone)
            keys.push_back(CandidateHeap::key(align_up(start_level_[k], c.alignment), c.bias, k));
    }
    for (Bundle &bundle : bundles_) {
        std::stable_sort(bundle.members.begin(), bundle.members.end(),
                         [&](uint32_t a, uint32_t b) { return candidates_[a].bias < candidates_[b].bias; });
        bundle.next = 0;
        const uint32_t first = bundle.members[0];
        keys.push_back(
            CandidateHeap::key(align_up(bundle.start_level, bundle.alignment), candidates_[first].bias, first));
    }
    std::sort(keys.begin(), keys.end());
    heap.reset(std::move(keys));
}

bool LowestFirst::take_bundled(CandidateHeap::Key top, CandidateHeap &heap, const Skyline &skyline,
                               uint64_t &lowest) {
    const uint32_t k = CandidateHeap::position(top);
    const Candidate &c = candidates_[k];
    // The bundle's lower bound for its first member, which is the lowest of
    // its members' bounds.
    Bundle &bundle = bundles_[bundle_of_[k]];
    const uint64_t core = align_up(skyline.max(bundle.core_begin, bundle.core_end), bundle.alignment);
    const CandidateHeap::Key bound = CandidateHeap::key(core, c.bias, k);
    if (bound > top && heap.second() < bound) {
        heap.replace_top(bound);
        return false;
    }
    // The member leaves the bundle: placed if its own lifetime is no higher
    // than the core, else queued on its own.
    bundle_of_[k] = kAlone;
    const bool more = ++bundle.next < bundle.members.size();
    const CandidateHeap::Key following =
        more ? CandidateHeap::key(core, candidates_[bundle.members[bundle.next]].bias, bundle.members[bundle.next]) : 0;
    lowest = align_up(skyline.max(c.begin, c.end), c.alignment);
    if (lowest != core) {
        heap.replace_top(CandidateHeap::key(lowest, c.bias, k));
        if (more) heap.push(following);
        return false;
    }
    if (more) {
        heap.replace_top(following);
    } else {
        heap.pop();
    }
    return true;
}

bool LowestFirst::take_alone(CandidateHeap::Key top, CandidateHeap &heap, const Skyline &skyline, uint64_t &lowest) {
    const uint32_t k = CandidateHeap::position(top);
    const Candidate &c = candidates_[k];
    lowest = align_up(skyline.max(c.begin, c.end), c.alignment);
    const CandidateHeap::Key current = CandidateHeap::key(lowest, c.bias, k);
    if (current > top && heap.second() < current) {
        heap.replace_top(current);
        return false;
    }
    heap.pop();
    return true;
}

void LowestFirst::place(uint32_t k, uint64_t offset, Skyline &skyline, std::vector<uint64_t> &offsets,
                        uint64_t &top_of_all) {
    const Candidate &c = candidates_[k];
    offsets[order_[k]] = offset;
    skyline.raise(c.begin, c.end, offset + c.size);
    top_of_all = std::max(top_of_all, offset + c.size);
    placed_++;
}

uint64_t lowest_first(const Prepared &prepared, const std::vector<uint32_t> &order, std::vector<uint64_t> &offsets,
                      const std::vector<int64_t> &bias, uint64_t give_up_at, const LowestFirstLimits &limits) {
    offsets.resize(prepared.items.size());
    LowestFirst pass(prepared, order, 0, std::vector<uint64_t>(prepared.points, 0));
    return pass.run(offsets, bias, give_up_at, limits);
}

}  // namespace harena::detail
