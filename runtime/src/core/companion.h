// How the host companion feature (companion/: host memory for the host-only
// buffers of GPU pipelines planned into a device arena) attaches to an
// arena, as the checking feature does (core/checking.h): through this
// table, which the feature installs when it is linked, and
// ArenaCore::companion_state, its state of the arena. The core asks it only
// at destruction and for the statistics.
#pragma once

#include "core/arena_core.h"

namespace harena::detail {

struct CompanionHooks {
    // Creation: the arena's state, with no companion yet. False without
    // host memory.
    bool (*create)(harena_arena &arena);
    // Whether the companion has a planned pipeline's frame pushed.
    bool (*busy)(const harena_arena &arena);
    // harena_destroy: the companion and its memory are freed, then the
    // state.
    void (*release)(harena_arena &arena);
    void (*destroy)(harena_arena &arena);
    // The companion, once it exists (the statistics read it).
    harena_arena *(*host)(const harena_arena &arena);
};

// The host companion feature's hooks, or null where it is not linked.
extern const CompanionHooks *host_companion;
// Called once by the feature, at start-up.
void install_host_companion(const CompanionHooks *hooks);

}  // namespace harena::detail
