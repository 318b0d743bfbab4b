#include "solver/detail/exact/cuts.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <utility>

namespace harena::detail {

namespace {

// The sections [first, last) that `part` spans.
std::pair<uint32_t, uint32_t> span_of(const std::vector<Item> &items, const std::vector<uint32_t> &part) {
    uint32_t first = UINT32_MAX, last = 0;
    for (uint32_t i : part) {
        first = std::min(first, items[i].begin);
        last = std::max(last, items[i].end);
    }
    return {first, last};
}

// bits |= bits << shift, over the first `words` words.
void shift_or(std::vector<uint64_t> &bits, uint64_t shift, size_t words) {
    const size_t ws = size_t(shift / 64), bs = size_t(shift % 64);
    for (size_t w = words; w-- > ws;) {
        uint64_t v = bits[w - ws] << bs;
        if (bs != 0 && w > ws) v |= bits[w - ws - 1] >> (64 - bs);
        bits[w] |= v;
    }
}

// The sweep behind cut_heights: for each section in time order, the heights
// (in units of `unit`, as bits 0 to `half`) that its buffers allow.
//
// Sweep the steps between sections in time order. S holds h in the
// sections on both sides of a step: some of the buffers alive across it
// plus some of those that end there, and the same ones alive across plus
// some of those that start there, whose sizes then sum as the ending
// ones do. So h is a subset sum of the buffers alive across plus a sum
// that both the ending and the starting buffers can make (stronger than
// a subset sum of each section's buffers, which it implies). Where a
// section has room to spare, S holds from h less that room up to h there:
// h is a subset sum of its buffers plus at most the room.
class HeightSweep {
public:
    HeightSweep(const std::vector<Item> &items, const std::vector<uint32_t> &part, uint64_t capacity, uint64_t unit,
                uint64_t half, uint64_t &work)
        : items_(items), capacity_(capacity), unit_(unit), half_(half), words_(size_t(half / 64 + 1)), work_(work),
          by_begin_(part), sums_(words_), starting_(words_) {
        std::sort(by_begin_.begin(), by_begin_.end(),
                  [&](uint32_t a, uint32_t b) { return items[a].begin < items[b].begin; });
        std::tie(first_, last_) = span_of(items, part);
        load_.assign(last_ - first_ + 1, 0);
        for (uint32_t i : part) {
            load_[items[i].begin - first_] += items[i].size;
            load_[items[i].end - first_] -= items[i].size;
        }
        for (size_t t = 1; t < load_.size(); t++)
            load_[t] += load_[t - 1];
    }

    // Clears from `common` each height some section rules out; false as
    // soon as none is left.
    bool narrow(std::vector<uint64_t> &common) {
        for (uint32_t t = first_; t < last_; t++) {
            advance_to(t);
            section_sums(t);
            widen_by_room(t);
            work_ += (alive_.size() + 1) * words_;
            bool any = false;
            for (size_t w = 0; w < words_; w++)
                any |= (common[w] &= sums_[w]) != 0;
            if (!any) return false;
        }
        return true;
    }

private:
    // Section t's spare room, in units.
    uint64_t room(uint32_t t) const {
        return t < last_ && load_[t - first_] < capacity_ ? (capacity_ - load_[t - first_]) / unit_ : 0;
    }

    void add(std::vector<uint64_t> &bits, uint32_t i) const {
        if (items_[i].size / unit_ <= half_) shift_or(bits, items_[i].size / unit_, words_);
    }

    static void reset(std::vector<uint64_t> &bits) {
        std::fill(bits.begin(), bits.end(), 0);
        bits[0] = 1;
    }

    // Makes alive_ the buffers alive in section t.
    void advance_to(uint32_t t) {
        alive_.erase(std::remove_if(alive_.begin(), alive_.end(), [&](uint32_t i) { return items_[i].end <= t; }),
                     alive_.end());
        for (; next_ < by_begin_.size() && items_[by_begin_[next_]].begin == t; next_++)
            alive_.push_back(by_begin_[next_]);
    }

    // The sums of the step after section t, where both sections are full;
    // else of section t alone.
    void section_sums(uint32_t t) {
        const bool step = t + 1 < last_ && room(t) == 0 && room(t + 1) == 0;
        reset(sums_);
        reset(starting_);
        for (uint32_t i : alive_) {
            if (step && items_[i].end == t + 1) add(sums_, i);
        }
        for (size_t x = next_; step && x < by_begin_.size() && items_[by_begin_[x]].begin == t + 1; x++) {
            add(starting_, by_begin_[x]);
            work_ += words_;
        }
        if (step) {
            for (size_t w = 0; w < words_; w++)
                sums_[w] &= starting_[w];
        }
        for (uint32_t i : alive_) {
            if (!step || items_[i].end > t + 1) add(sums_, i);
        }
    }

    // The sums shifted by 0 to the room, doubling the reach each time.
    void widen_by_room(uint32_t t) {
        for (uint64_t reach = 0, d = room(t); reach < d;) {
            const uint64_t shift = std::min(reach + 1, d - reach);
            shift_or(sums_, shift, words_);
            reach += shift;
            work_ += words_;
        }
    }

    const std::vector<Item> &items_;
    const uint64_t capacity_, unit_, half_;
    const size_t words_;
    uint64_t &work_;
    std::vector<uint32_t> by_begin_;
    uint32_t first_ = 0, last_ = 0;
    std::vector<uint64_t> load_;  // the load of each section
    std::vector<uint32_t> alive_;
    size_t next_ = 0;  // the next of by_begin_ to come alive
    std::vector<uint64_t> sums_, starting_;
};

}  // namespace

std::vector<uint64_t> cut_heights(const std::vector<Item> &items, const std::vector<uint32_t> &part,
                                  uint64_t capacity, uint64_t &work) {
    if (part.size() < 2) return {};
    uint64_t unit = capacity, alignment = 1;
    for (uint32_t i : part) {
        unit = std::gcd(unit, items[i].size);
        alignment = std::max(alignment, items[i].alignment);
    }
    if (unit == 0) return {};
    const uint64_t half = capacity / 2 / unit;  // heights in units: 1 to half
    if (half == 0 || half > (uint64_t(1) << 22)) return {};
    const size_t words = size_t(half / 64 + 1);
    const uint64_t last_mask = half % 64 == 63 ? ~uint64_t(0) : (uint64_t(2) << (half % 64)) - 1;
    std::vector<uint64_t> common(words, ~uint64_t(0));
    common[words - 1] &= last_mask;
    common[0] &= ~uint64_t(1);  // not 0
    if (!HeightSweep(items, part, capacity, unit, half, work).narrow(common)) return {};
    std::vector<uint64_t> heights;
    for (uint64_t k = 1; k <= half; k++) {
        if ((common[k / 64] >> (k % 64) & 1) != 0 && k * unit % alignment == 0) heights.push_back(k * unit);
    }
    return heights;
}

CutFinder::CutFinder(const std::vector<Item> &items, const std::vector<uint32_t> &part, uint64_t capacity)
    : items_(items), part_(part), local_(items.size(), kNone) {
    uint32_t last;
    std::tie(first_, last) = span_of(items, part);
    const uint32_t sections = part.empty() ? 0 : last - first_;
    need_.assign(sections, 0);
    held_.assign(sections, 0);
    count_.assign(sections, 0);
    members_.resize(sections);
    value_.assign(part.size(), kUndecided);
    for (uint32_t k = 0; k < part.size(); k++) {
        local_[part[k]] = k;
        const Item &item = items[part[k]];
        for (uint32_t s = item.begin; s < item.end; s++) {
            members_[s - first_].push_back(k);
            held_[s - first_] += int64_t(item.size);
            count_[s - first_]++;
        }
    }
    // Buffers of one shape are interchangeable: S takes the first ones of
    // each such run, so `twin_before_` must be in S for a buffer to be.
    std::vector<uint32_t> by_shape(part.size());
    std::iota(by_shape.begin(), by_shape.end(), 0);
    auto shape = [&](uint32_t k) {
        const Item &item = items[part[k]];
        return std::make_tuple(item.begin, item.end, item.size);
    };
    std::stable_sort(by_shape.begin(), by_shape.end(), [&](uint32_t a, uint32_t b) { return shape(a) < shape(b); });
    twin_before_.assign(part.size(), kNone);
    twin_after_.assign(part.size(), kNone);
    for (size_t x = 1; x < by_shape.size(); x++) {
        if (shape(by_shape[x]) == shape(by_shape[x - 1])) {
            twin_before_[by_shape[x]] = by_shape[x - 1];
            twin_after_[by_shape[x - 1]] = by_shape[x];
        }
    }
    watches_.resize(part.size());
    slack_.resize(sections);
    for (uint32_t s = 0; s < sections; s++)
        slack_[s] = int64_t(capacity) - held_[s];
}

CutFinder::Outcome CutFinder::find(uint64_t h, const std::vector<Nogood> &nogoods, Budget &budget,
                                   std::vector<uint32_t> &below) {
    below.clear();
    if (part_.empty()) return Outcome::None;
    budget_ = &budget;
    uint64_t &work = budget.work;
    out_of_work_ = false;
    found_ = &below;
    std::fill(need_.begin(), need_.end(), int64_t(h));
    // Each nogood counts its buffers decided as it has them, and forbids the
    // choice that completes it.
    for (auto &w : watches_)
        w.clear();
    nogood_size_.clear();
    for (const Nogood &nogood : nogoods) {
        const uint32_t id = uint32_t(nogood_size_.size());
        nogood_size_.push_back(uint32_t(nogood.in.size() + nogood.out.size()));
        for (int8_t v : {1, 0}) {
            for (uint32_t i : v == 1 ? nogood.in : nogood.out) {
                if (local_[i] != kNone) watches_[local_[i]].push_back({id, v});
            }
        }
        work += nogood_size_.back();
    }
    nogood_matched_.assign(nogood_size_.size(), 0);
    work += part_.size() + need_.size();
    queue_.clear();
    for (uint32_t s = 0; s < need_.size(); s++)
        queue_.push_back(s);
    // Every search ends where it started (held_ and count_ as built).
    if (propagate()) branch();
    undo(0);
    if (!below.empty()) return Outcome::Found;
    return out_of_work_ ? Outcome::OutOfWork : Outcome::None;
}

// True to stop: a cut found, or out of work.
bool CutFinder::branch() {
    if (++budget_->work >= budget_->max_work || ++budget_->nodes > budget_->max_nodes) {
        out_of_work_ = true;
        return true;
    }
    uint32_t best = kNone;
    for (uint32_t s = 0; s < count_.size(); s++) {
        if (count_[s] > 0 && (best == kNone || count_[s] < count_[best])) best = s;
    }
    budget_->work += count_.size() / 8;
    if (best == kNone) {
        for (uint32_t k = 0; k < part_.size(); k++) {
            if (value_[k] == 1) found_->push_back(part_[k]);
        }
        // With room to spare, S or the rest may be empty: no cut.
        if (!found_->empty() && found_->size() < part_.size()) return true;
        found_->clear();
        return false;
    }
    uint32_t pick = kNone;
    for (uint32_t k : members_[best]) {
        if (value_[k] == kUndecided && (pick == kNone || items_[part_[k]].size > items_[part_[pick]].size)) pick = k;
    }
    while (twin_before_[pick] != kNone && value_[twin_before_[pick]] == kUndecided)
        pick = twin_before_[pick];
    for (int8_t v : {1, 0}) {
        const size_t mark = trail_.size();
        queue_.clear();
        bool ok = assign(pick, v);
        // Out of S: so are the interchangeable buffers after it.
        for (uint32_t k = twin_after_[pick]; v == 0 && k != kNone; k = twin_after_[k]) {
            if (value_[k] == kUndecided) ok = assign(k, 0) && ok;
        }
        if (ok && propagate() && branch()) return true;
        undo(mark);
    }
    return false;
}

// Decides buffer k; false if that leaves some section unable to reach
// exactly h or completes a nogood (the change is made all the same, for
// undo()).
bool CutFinder::assign(uint32_t k, int8_t v) {
    value_[k] = v;
    trail_.push_back(k);
    const Item &item = items_[part_[k]];
    const int64_t size = int64_t(item.size);
    bool ok = true;
    budget_->work += item.end - item.begin + watches_[k].size();
    for (const auto &[id, as] : watches_[k]) {
        if (as == v && ++nogood_matched_[id] == nogood_size_[id]) ok = false;
    }
    for (uint32_t s = item.begin - first_; s < item.end - first_; s++) {
        held_[s] -= size;
        count_[s]--;
        if (v == 1) need_[s] -= size;
        if (need_[s] < 0 || need_[s] - slack_[s] > held_[s]) ok = false;
        if (count_[s] > 0 && (need_[s] == 0 || need_[s] - slack_[s] == held_[s] || count_[s] <= kFew)) {
            queue_.push_back(s);
        }
    }
    return ok;
}

// Makes the forced choices; false on a contradiction.
bool CutFinder::propagate() {
    while (!queue_.empty()) {
        const uint32_t s = queue_.back();
        queue_.pop_back();
        if (count_[s] == 0) continue;
        if (need_[s] == 0 || need_[s] - slack_[s] == held_[s]) {
            const int8_t v = need_[s] == 0 ? 0 : 1;
            for (uint32_t k : members_[s]) {
                if (value_[k] == kUndecided && !assign(k, v)) return false;
            }
        } else if (count_[s] <= kFew && !settle_few(s)) {
            return false;
        }
    }
    return true;
}

// A section with at most kFew undecided buffers: tries every choice of
// them; false if none makes what the section needs, and decides each buffer
// that all the choices that do agree on.
bool CutFinder::settle_few(uint32_t s) {
    uint32_t few[kFew];
    uint32_t n = 0;
    for (uint32_t k : members_[s]) {
        if (value_[k] == kUndecided) few[n++] = k;
    }
    budget_->work += members_[s].size();
    uint32_t all_in = (1u << n) - 1, all_out = (1u << n) - 1;  // bits: buffers in (out of) every match
    bool any = false;
    for (uint32_t mask = 0; mask < (1u << n); mask++) {
        int64_t sum = 0;
        for (uint32_t x = 0; x < n; x++) {
            if (mask >> x & 1) sum += int64_t(items_[part_[few[x]]].size);
        }
        if (sum > need_[s] || sum < need_[s] - slack_[s]) continue;
        any = true;
        all_in &= mask;
        all_out &= ~mask;
    }
    if (!any) return false;
    for (uint32_t x = 0; x < n; x++) {
        if (value_[few[x]] != kUndecided) continue;
        if ((all_in >> x & 1) != 0 && !assign(few[x], 1)) return false;
        if ((all_out >> x & 1) != 0 && !assign(few[x], 0)) return false;
    }
    return true;
}

void CutFinder::undo(size_t mark) {
    while (trail_.size() > mark) {
        const uint32_t k = trail_.back();
        trail_.pop_back();
        const Item &item = items_[part_[k]];
        for (uint32_t s = item.begin - first_; s < item.end - first_; s++) {
            held_[s] += int64_t(item.size);
            count_[s]++;
            if (value_[k] == 1) need_[s] += int64_t(item.size);
        }
        for (const auto &[id, as] : watches_[k]) {
            if (as == value_[k]) nogood_matched_[id]--;
        }
        value_[k] = kUndecided;
    }
}

}  // namespace harena::detail
