// Internal to the exact search: the stacking check of one section. Its
// unplaced buffers all go between its floor and the capacity, filling it
// but for the room it has to spare; each goes no lower than its lowest
// offset. So, for every height h, those whose lowest offset is below h must
// fill the bytes from the floor up to h, less the spare room.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace harena::detail {

class StackingCheck {
public:
    explicit StackingCheck(uint32_t sections)
        : seen_(sections, 0) {
    }

    // A new partial plan: each section is checked at most once until the next.
    void next_plan() {
        stamp_++;
    }
    // Whether section s is still to be checked in this plan; marks it checked.
    bool first_visit(uint32_t s) {
        if (seen_[s] == stamp_) return false;
        seen_[s] = stamp_;
        return true;
    }

    // Checks a section with `floor` and `spare` room: start(), add() for each
    // of its unplaced buffers, then possible(), which adds its work.
    void start(uint64_t floor, uint64_t spare) {
        free_up_to_ = floor + spare;
        filled_ = free_up_to_;
        above_.clear();
        above_min_ = UINT64_MAX;
        above_max_ = 0;
    }
    void add(uint64_t lowest, uint64_t size) {
        // Buffers that can go within the spare room fill from the floor up with
        // no further condition; only the others need sorting.
        if (lowest <= free_up_to_) {
            filled_ += size;
        } else {
            above_.push_back({lowest, size});
            above_min_ = std::min(above_min_, lowest);
            above_max_ = std::max(above_max_, lowest);
        }
    }
    bool possible(uint64_t &work);

private:
    std::vector<uint64_t> seen_;  // per section: stamp_ when last checked
    uint64_t stamp_ = 0;
    uint64_t free_up_to_ = 0, filled_ = 0;
    std::vector<std::pair<uint64_t, uint64_t>> above_;  // (lowest offset, size) above free_up_to_
    uint64_t above_min_ = UINT64_MAX, above_max_ = 0;   // the least and greatest lowest offset in above_
};

}  // namespace harena::detail
