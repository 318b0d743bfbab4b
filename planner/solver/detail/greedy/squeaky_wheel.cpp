#include "solver/detail/greedy/squeaky_wheel.h"

#include <algorithm>

#include "solver/detail/greedy/lowest_first.h"
#include "solver/detail/greedy/skyline.h"

namespace harena::detail {
namespace {

// Buffers that end above a height and whose lifetimes chain together: they can be
// re-placed together over the floor, apart from every other buffer above it.
struct Window {
    std::vector<uint32_t> items;
    uint32_t first = 0, last = 0;  // sections [first, last)
    uint64_t top = 0;              // highest top of its buffers
};

// Per section, the highest top of the buffers that end at `height` or below.
std::vector<uint64_t> floor_below(const Prepared &prepared, const std::vector<uint64_t> &offsets, uint64_t height) {
    Skyline skyline(std::vector<uint64_t>(prepared.points, 0));
    for (size_t i = 0; i < prepared.items.size(); i++) {
        const Item &item = prepared.items[i];
        if (offsets[i] + item.size <= height) skyline.raise(item.begin, item.end, offsets[i] + item.size);
    }
    return skyline.heights(prepared.points);
}

// The windows of the buffers that end above `height`.
std::vector<Window> windows_above(const Prepared &prepared, const std::vector<uint64_t> &offsets, uint64_t height) {
    std::vector<uint32_t> above;
    for (uint32_t i = 0; i < prepared.items.size(); i++) {
        if (offsets[i] + prepared.items[i].size > height) above.push_back(i);
    }
    const std::vector<Item> &items = prepared.items;
    std::sort(above.begin(), above.end(), [&](uint32_t a, uint32_t b) {
        return items[a].begin != items[b].begin ? items[a].begin < items[b].begin : a < b;
    });
    std::vector<Window> windows;
    for (uint32_t i : above) {
        if (windows.empty() || items[i].begin >= windows.back().last) windows.push_back({{}, items[i].begin, 0, 0});
        Window &w = windows.back();
        w.items.push_back(i);
        w.last = std::max(w.last, items[i].end);
        w.top = std::max(w.top, offsets[i] + items[i].size);
    }
    return windows;
}

class Wheel {
public:
    Wheel(const Prepared &prepared, const Incumbent &start, const std::vector<int64_t> &bias, uint64_t lower_bound,
          uint64_t goal, const SqueakyWheelBudget &budget, const Deadline &deadline)
        : prepared_(prepared),
          lower_bound_(lower_bound),
          goal_(goal),
          budget_(budget),
          deadline_(deadline),
          bias_(bias.empty() ? std::vector<int64_t>(prepared.items.size(), 0) : bias),
          rank_(prepared.items.size()),
          offsets_(start.offsets),
          scratch_(prepared.items.size()) {
        for (size_t k = 0; k < start.order.size(); k++)
            rank_[start.order[k]] = uint32_t(k);
    }

    // Lowers the windows above ever lower heights until the arena reaches the
    // goal, the budget runs out or a round at every height changes nothing.
    // Returns the plan's arena; offsets() is the plan.
    uint64_t run(uint64_t arena) {
        // Depths below the lower bound, as fractions of it: half the bound
        // leaves most of a long program's buffers alone yet gives the passes
        // room to reorder the buffers under a peak (shallower windows rarely
        // lower it); then the whole problem.
        static const double kDepths[] = {1.0 / 2, 1.0};
        for (bool improved = true; improved;) {
            improved = false;
            for (double depth : kDepths) {
                if (arena <= goal_ || out_of_budget(0)) return arena;
                uint64_t height = lower_bound_ - std::min(lower_bound_, uint64_t(double(lower_bound_) * depth));
                std::vector<Window> windows = windows_above(prepared_, offsets_, height);
                if (depth < 1 && !worth_windows(windows)) continue;
                const std::vector<uint64_t> floor = floor_below(prepared_, offsets_, height);
                uint64_t new_arena = 0;
                for (Window &w : windows) {
                    if (w.top > goal_) lower(w, floor);
                    new_arena = std::max(new_arena, w.top);
                }
                // Buffers below the height stayed where they were.
                for (uint64_t h : floor)
                    new_arena = std::max(new_arena, h);
                improved |= new_arena < arena;
                arena = new_arena;
            }
        }
        return arena;
    }

    const std::vector<uint64_t> &offsets() const {
        return offsets_;
    }

private:
    // Once out, stays out: a later, smaller window that would still fit in
    // what is left is not lowered either, so a larger budget makes every pass
    // a smaller one makes, and goes on from there.
    bool out_of_budget(size_t placements) {
        exhausted_ = exhausted_ || placed_ + placements > budget_.placements || deadline_.expired();
        return exhausted_;
    }

    // Whether the windows to lower hold few enough buffers to be worth
    // passes of their own: with much of the problem in them, whole passes
    // do better for the same work, as they reorder every buffer.
    bool worth_windows(const std::vector<Window> &windows) const {
        size_t hot = 0;
        for (const Window &w : windows)
            hot += w.top > goal_ ? w.items.size() : 0;
        return hot * 4 <= prepared_.items.size();
    }

    // Squeaky-wheel passes over one window; keeps its best placement.
    void lower(Window &w, const std::vector<uint64_t> &floor) {
        const std::vector<uint64_t> window_floor(floor.begin() + w.first, floor.begin() + w.last);
        // Ties go by the start order; only the biases change between passes.
        std::vector<uint32_t> order = w.items;
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return rank_[a] < rank_[b]; });
        LowestFirst pass(prepared_, order, w.first, window_floor);
        std::vector<uint64_t> &offsets = scratch_;
        for (uint32_t i : w.items)
            offsets[i] = offsets_[i];
        for (uint64_t attempt = 0; attempt < budget_.passes && w.top > goal_; attempt++) {
            if (out_of_budget(w.items.size())) return;
            for (uint32_t i : w.items) {
                uint64_t end = offsets[i] + prepared_.items[i].size;
                if (end > lower_bound_) bias_[i] = lowered(bias_[i], end - lower_bound_);
            }
            // A pass gives up once it cannot beat the window's best; the buffers
            // it did not place keep their offsets from the pass before, which
            // still tell the next one which of them ended too high.
            uint64_t top = pass.run(offsets, bias_, w.top);
            placed_ += pass.placed();
            if (top < w.top) {
                w.top = top;
                for (uint32_t i : w.items)
                    offsets_[i] = offsets[i];
            }
        }
    }

    // A buffer that ended `excess` bytes above the lower bound comes forward
    // by a fifth of that: enough to settle it before the buffers that pushed
    // it up within a few passes, little enough that the buffers it passes do
    // not all end up above it instead.
    static int64_t lowered(int64_t bias, uint64_t excess) {
        int64_t step = int64_t(std::min<uint64_t>(excess / 5, uint64_t(1) << 61));
        return bias > INT64_MIN / 2 + step ? bias - step : INT64_MIN / 2;
    }

    const Prepared &prepared_;
    const uint64_t lower_bound_, goal_;
    const SqueakyWheelBudget budget_;
    const Deadline &deadline_;
    std::vector<int64_t> bias_;      // lowest first's, lowered for buffers that end above the bound
    std::vector<uint32_t> rank_;     // position in the start order, which breaks ties
    std::vector<uint64_t> offsets_;  // the plan so far
    std::vector<uint64_t> scratch_;  // the window's last pass
    uint64_t placed_ = 0;
    bool exhausted_ = false;
};

}  // namespace

void squeaky_wheel(const Prepared &prepared, const Incumbent &start, const std::vector<int64_t> &bias,
                   uint64_t lower_bound, uint64_t goal, const SqueakyWheelBudget &budget, const Deadline &deadline,
                   Incumbent &best) {
    Wheel wheel(prepared, start, bias, lower_bound, goal, budget, deadline);
    uint64_t arena = wheel.run(start.arena);
    if (arena < best.arena) {
        best.offsets = wheel.offsets();
        best.arena = arena;
    }
}

}  // namespace harena::detail
