// How the checking feature (debug records, guard bands and a memory
// checker's regions: runtime/src/checking, guard/, debug/, nvtx/) attaches
// to an arena. The core knows it only through this table, which the feature
// installs when it is linked, and through the arena's `checks`, the
// feature's own state of that arena. The core calls a hook only where
// ArenaCore::watched says the arena is checked, or on a path that is slow
// anyway (creation, the region, binding, statistics), so an unchecked
// arena's allocations, frees, pushes and pops pay one predictable branch.
#pragma once

#include <cstdint>
#include <string>

#include "core/allocation_name.h"
#include "core/arena_core.h"
#include "harena/runtime.h"

namespace harena::detail {

struct CheckingHooks {
    // Creation: the arena's checking state for these modes (it stays empty
    // of records and bands where neither is asked for, and holds the
    // checker's regions of device arenas). False without host memory.
    bool (*create)(harena_arena &arena, bool debug, bool guard);
    void (*destroy)(harena_arena &arena);
    // Whether anything must see each allocation and free: records, bands,
    // a checker's heap (ArenaCore::watched).
    bool (*watching)(const harena_arena &arena);
    // Debug mode (harena_info.debug).
    bool (*debug)(const harena_arena &arena);

    // A new slice [top, top + size) for a request of `bytes`. An error has
    // been reported, and the slice's bytes given back.
    int (*allocated)(harena_arena &arena, uint64_t top, uint64_t bytes, uint64_t size, const AllocationName &name);
    // Debug and guard modes check frees against their records: why a free of
    // `size` bytes at offset `begin` matches none (empty when one does, or
    // without records); *found says whether a record starts at begin.
    std::string (*free_mismatch)(harena_arena &arena, uint64_t begin, uint64_t size, bool *found);
    // The slice at `address` ends: freed, its band checked.
    int (*released)(harena_arena &arena, uint64_t address);
    // The slice at offset `offset` left the arena with the buffer holding it.
    void (*evicted)(harena_arena &arena, uint64_t offset);

    // A frame was pushed on the slow path: its reservation of `reserved`
    // bytes starts `lead` bytes in; `banded`: bands go around it (frames of
    // scopes and harena_push in guard mode), for `reserve_bytes` asked.
    void (*pushed)(harena_arena &arena, const Frame &frame, uint64_t lead, uint64_t reserved, uint64_t reserve_bytes,
                   bool banded, const char *function);
    // The frame pops: its bands are checked while its bytes are as the
    // pipeline left them (popping), and once the buffers that outlive it have
    // left, its regions and records end (popped).
    int (*popping)(harena_arena &arena, const Frame &frame);
    int (*popped)(harena_arena &arena, const Frame &frame);
    // A planned pipeline that lays out guard bands entered `frame`.
    int (*pipeline_entered)(harena_arena &arena, const Frame &frame, void *user_context, const char *pipeline);

    // Device arenas: the memory [address, address + bytes) holding the
    // region becomes the checker's heap, or stops being it; the CUDA
    // binding changed the context its work runs in.
    void (*region_attached)(harena_arena &arena, uint64_t address, uint64_t bytes);
    void (*region_detached)(harena_arena &arena);
    void (*context_bound)(harena_arena &arena);
    // Whether a memory checker is attached to the process.
    bool (*tool_attached)();

    // Graph captures and replays (runtime/src/graph). A capture on the
    // calling thread begins or ends: while it lasts, a region ends without
    // first waiting for the device (no kernel of the capture runs, and the
    // wait is not allowed during a capture).
    void (*capturing)(bool capturing);
    // A replay runs a captured call's kernels without the call's frame: the
    // bytes from the absolute address `top` to the region's end, where that
    // frame lay, are one live region until the launch is queued
    // (replay_launched, called only where replay_launching returned true).
    bool (*replay_launching)(harena_arena &arena, uint64_t top);
    void (*replay_launched)(harena_arena &arena, uint64_t top);

    // The statistics: adds the feature's counts to *stats, or resets them.
    void (*read_stats)(const harena_arena &arena, harena_stats *stats);
    void (*reset_stats)(harena_arena &arena);
};

// The checking feature's hooks, or null where it is not linked.
extern const CheckingHooks *checking;
// Called once by the feature, at start-up.
void install_checking(const CheckingHooks *hooks);

}  // namespace harena::detail
