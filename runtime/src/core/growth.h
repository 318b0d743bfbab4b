// How the growth feature (growing arenas and measuring arenas: growth/,
// measure/) attaches to an arena, as the checking feature does
// (core/checking.h): through this table, which the feature installs when it
// is linked, and ArenaCore::growth, its state of the arena. The core asks it
// only where ArenaCore::grows is set (a growing arena) or on paths that are
// slow anyway (an overflow, a planned pipeline's entry, statistics).
#pragma once

#include <cstdint>

#include "core/arena_core.h"

namespace harena::detail {

struct GrowthHooks {
    // Creation: the arena's state; `grow` makes it a growing arena
    // (ArenaCore::grows). False without host memory.
    bool (*create)(harena_arena &arena, bool grow);
    void (*destroy)(harena_arena &arena);
    // An allocation of a growing arena did not fit: it wanted `capacity`.
    void (*overflowed)(harena_arena &arena, uint64_t capacity);
    // A growing arena's push at depth 0: the region is replaced by one that
    // holds `reserve_bytes` and what overflows wanted (reported, and the
    // region kept, where that fails).
    void (*make_room)(harena_arena &arena, uint64_t reserve_bytes, const char *function);
    // A planned pipeline enters: true for a measuring arena, which keeps the
    // call's request instead (the call then stops).
    bool (*measured)(harena_arena &arena, uint64_t bytes, uint64_t worst_case_bytes);
    // The statistics: how many times the region grew, and its reset.
    uint64_t (*grows)(const harena_arena &arena);
    void (*reset_stats)(harena_arena &arena);
};

// The growth feature's hooks, or null where it is not linked.
extern const GrowthHooks *growth;
// Called once by the feature, at start-up.
void install_growth(const GrowthHooks *hooks);

}  // namespace harena::detail
