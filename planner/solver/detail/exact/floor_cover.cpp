#include "solver/detail/exact/floor_cover.h"

namespace harena::detail {

FloorCover::FloorCover(uint32_t sections, uint32_t pieces)
    : ends_(size_t(sections) + 1) {
    // Each section and piece brings at most one level: a table at most half
    // full.
    uint32_t size = 16;
    while (size < 2 * (uint64_t(sections) + pieces))
        size *= 2;
    keys_.assign(size, 0);
    slots_.assign(size, 0);
    stamps_.assign(size, 0);
    mask_ = size - 1;
}

uint32_t FloorCover::level_of(uint64_t level, uint32_t first) {
    for (uint32_t h = uint32_t((level * 0x9E3779B97F4A7C15ull) >> 40) & mask_;; h = (h + 1) & mask_) {
        if (stamps_[h] != stamp_) {
            stamps_[h] = stamp_;
            keys_[h] = level;
            slots_[h] = uint32_t(levels_.size());
            // Before any floor, every level's floors are covered.
            levels_.push_back({int64_t(first), int64_t(first) - 1});
            return slots_[h];
        }
        if (keys_[h] == level) return slots_[h];
    }
}

bool FloorCover::possible(uint32_t first, uint32_t last, const std::vector<uint64_t> &floors,
                          const std::vector<Piece> &pieces) {
    stamp_++;
    levels_.clear();
    size_t next = 0;
    for (uint32_t t = first;; t++) {
        // Pieces chosen earlier that end here: their level is covered up to t.
        for (uint32_t l : ends_[t - first])
            levels_[l].reached = int64_t(t);
        ends_[t - first].clear();
        if (t == last) break;
        // A piece may be chosen where its level is covered up to its begin.
        for (; next < pieces.size() && pieces[next].begin == t; next++) {
            uint32_t l = level_of(pieces[next].level, first);
            if (levels_[l].reached > levels_[l].last_floor) ends_[pieces[next].end - first].push_back(l);
        }
        if (floors[t - first] != kFree) levels_[level_of(floors[t - first], first)].last_floor = int64_t(t);
    }
    for (const Level &level : levels_) {
        if (level.reached <= level.last_floor) return false;
    }
    return true;
}

}  // namespace harena::detail
