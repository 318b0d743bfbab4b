#pragma once
// The slots of a parallel loop whose iterations allocate planned buffers.
// Each task of the loop takes a slot when it starts and gives it back when
// it ends; its buffers lie at their sub-plan's offsets in that slot. The
// pool's state lies on the pipeline's own stack beside the loop, so a slot
// costs no heap. Where the arena is user_context, halide-arena's runtime
// keeps the free slots, one atomic operation a take or a give, and counts
// them (harena_slot_take in harena/pipeline_abi.h). A pipeline with an arena
// argument calls nothing of that runtime: it keeps them itself, a stack of
// free slots under one halide_mutex. A task that finds every slot taken
// (more tasks than threads run at once when a waiting thread runs other
// tasks, or under nested parallel loops) takes one block of a slot's bytes
// from halide_malloc instead, where its host buffers lie at the same
// offsets, and its device buffers from Halide's device malloc: counted,
// never corrupting. Either way its buffers are the slot base plus an
// offset, so the task's body holds no allocation of its own.
#include "types.h"

#include <map>
#include <string>
#include <vector>

namespace harena {

// Who keeps a pool's free slots.
enum class SlotKeeper {
    Runtime,   // the arena is user_context: the runtime's calls, which count the slots
    Pipeline,  // an arena argument: the pipeline, under a halide_mutex
};

// One parallel loop's pool, as the rewrite needs it.
struct SlotPool {
    int region = 0;         // Candidate::region of its buffers
    std::string loop_name;  // for names and messages
    int capacity = 0;       // the slots, every call (PassOptions::parallel_slots)
    Halide::Expr stride;    // UInt(64): the bytes of one slot in this call
    Halide::Expr offset;    // UInt(64): the pool's offset in the frame
    SlotKeeper keeper = SlotKeeper::Runtime;
    bool host_buffers = false;  // some of its buffers are host buffers
    // Its line in the slice table, naming the band that opens each slot
    // (HARENA_SLICE_SLOT_OPENED); its buffers' lines follow.
    uint32_t opening_slice = 0;
};

// A plan's pools, and the loops the rewrite finds them at.
struct SlotPools {
    std::vector<SlotPool> pools;
    std::map<const Halide::Internal::IRNode *, size_t> by_loop;  // the loop of pools[i]
    std::map<int, size_t> by_region;                             // SlotPool::region
    // The outermost parallel loops, each with the pools of the loops inside
    // it (itself included) whose states it keeps.
    std::map<const Halide::Internal::IRNode *, std::vector<size_t>> states_at;
    bool device_buffers = false;  // some pool holds device buffers
    [[nodiscard]] bool empty() const {
        return pools.empty();
    }
};

// `loop`, the outermost parallel loop around the given pools' loops, with
// each pool's state allocated and filled before it runs (every slot free),
// and each pool the runtime keeps counted after it (harena_pipeline_slots).
Halide::Internal::Stmt with_slot_states(const std::vector<const SlotPool *> &pools, const Halide::Internal::Stmt &loop);

// A body of `pool`'s loop that takes a slot first and gives it back last.
// Inside `body`, slot_taken(pool) says whether it got one and
// slot_base(pool) is where its host buffers start: the slot, or for a task
// without one and a pool with host buffers, a heap block of the slot's
// bytes, freed when the body ends and on its error paths. `frame_base` is
// the frame's address (UInt(64)) that pool.offset counts from.
Halide::Internal::Stmt in_a_slot(const SlotPool &pool, const Halide::Expr &frame_base,
                                 const Halide::Internal::Stmt &body);

// A Bool: the running task holds a slot of `pool`.
Halide::Expr slot_taken(const SlotPool &pool);

// UInt(64): the address of the running task's slot.
Halide::Expr slot_base(const SlotPool &pool);

}  // namespace harena
