// The checking feature's state of one arena: debug records, guard bands and
// the memory checker's heap (debug/, guard/, nvtx/), which the core reaches
// only through the hooks of core/checking.h. Every arena has one while the
// feature is linked; ArenaCore::watched says whether it has work.
#pragma once

#include "core/arena_core.h"
#include "debug/state.h"
#include "guard/state.h"
#include "nvtx/state.h"

namespace harena::detail {

struct ArenaChecks {
    DebugRecords records;  // debug and guard modes
    GuardBands guards;     // guard mode (ArenaCore::band_bytes != 0)
    // Device arenas while a memory checker is attached; null otherwise.
    // Changes only with the region, while no allocation runs.
    NvtxHeap *nvtx = nullptr;
};

inline ArenaChecks &checks_of(ArenaCore &arena) {
    return *arena.checks;
}

// The memory checker's heap of an arena, null where none is attached (or
// the feature holds no state for the arena).
inline NvtxHeap *nvtx_heap_of(const ArenaCore &arena) {
    return arena.checks != nullptr ? arena.checks->nvtx : nullptr;
}

// For guard bands: messages to user_context, device copies on the stream
// the kernels used: the caller's context (a planned pipeline passes the
// arena), else the arena itself where it carries a stream (the CUDA hooks
// answer for it), else the arena creator's.
GuardCall guard_call(harena_arena &arena, void *user_context);

}  // namespace harena::detail
