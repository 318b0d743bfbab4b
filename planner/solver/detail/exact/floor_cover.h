// Internal to the exact search: a one-dimensional check of a partial plan.
// Where a section's unplaced buffers must fill it from its floor to the
// capacity, the byte at its floor is covered by a buffer placed exactly
// there. Such a buffer can only be one whose lowest possible offset is that
// floor, and buffers at the same offset are never alive together. So, level
// by level, the sections whose floor is that level must be covered by
// lifetimes of buffers of that level that do not overlap one another.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace harena::detail {

// An unplaced buffer: its lifetime (sections [begin, end)) and its lowest
// possible offset, the only level whose floors it can cover.
struct Piece {
    uint32_t begin = 0, end = 0;
    uint64_t level = 0;
};

class FloorCover {
public:
    static constexpr uint64_t kFree = UINT64_MAX;  // a section with no floor to cover

    // For checks over at most `sections` sections and `pieces` pieces.
    FloorCover(uint32_t sections, uint32_t pieces);

    // Sections [first, last); floors[s - first] is the level section s must be
    // covered at, or kFree; `pieces` lie within [first, last), sorted by
    // begin. Whether each level's floors can be covered as above: a dynamic
    // program over sections for every level at once, in one sweep, since each
    // level changes state only at its own floors and pieces. Time linear in
    // sections and pieces.
    bool possible(uint32_t first, uint32_t last, const std::vector<uint64_t> &floors,
                  const std::vector<Piece> &pieces);

private:
    // Per level, as of the sweep's position t: the last position p <= t from
    // which the level's floors before p are covered by pieces that end by p,
    // and the last floor of the level before t. Its floors before t can be
    // covered, with no piece crossing t, when reached > last_floor.
    struct Level {
        int64_t reached, last_floor;
    };

    uint32_t level_of(uint64_t level, uint32_t first);

    std::vector<Level> levels_;
    // Open addressing from a level's value to its index in levels_, cleared
    // by stamp.
    std::vector<uint64_t> keys_;
    std::vector<uint32_t> slots_;
    std::vector<uint64_t> stamps_;
    uint64_t stamp_ = 0;
    uint32_t mask_ = 0;
    // Per position: the levels a chosen piece ending there reaches.
    std::vector<std::vector<uint32_t>> ends_;
};

}  // namespace harena::detail
