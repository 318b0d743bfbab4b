// The checking feature's hooks (core/checking.h): debug records, guard bands
// and a memory checker's regions seeing what the core does, installed when
// this file is linked. The feature library's link options name
// harena_checking_feature, so that every program linking the runtime links
// this file although nothing calls it by name.
#include <new>
#include <string>

#include "checking/state.h"
#include "core/arena.h"
#include "core/errors.h"
#include "harena/guard_layout.h"

namespace harena::detail {

GuardCall guard_call(harena_arena &arena, void *user_context) {
    void *copy = user_context != nullptr        ? user_context :
                 arena.cuda.stream() != nullptr ? static_cast<void *>(&arena) :
                                                  arena.user_context;
    return GuardCall{user_context, copy};
}

namespace {

bool create(harena_arena &arena, bool debug, bool guard) {
    arena.checks = new (std::nothrow) ArenaChecks;
    if (arena.checks == nullptr) {
        return false;
    }
    arena.checks->records.configure(debug, guard);
    return true;
}

void destroy(harena_arena &arena) {
    delete arena.checks;
    arena.checks = nullptr;
}

bool watching(const harena_arena &arena) {
    const ArenaChecks &c = *arena.checks;
    return c.records.kept() || arena.band_bytes != 0 || c.nvtx != nullptr;
}

bool debug(const harena_arena &arena) {
    return arena.checks->records.debug();
}

// A new slice: recorded, declared to the checker, and its band, from the end
// of the bytes to the end of the slice, filled.
int allocated(harena_arena &arena, uint64_t top, uint64_t bytes, uint64_t size, const AllocationName &name) {
    ArenaChecks &c = checks_of(arena);
    const uint64_t address = arena.base + top;
    if (c.records.kept()) {
        if (int err = c.records.add(arena.user_context, top, size, bytes, name)) {
            return err;  // the bytes come back when the frame pops
        }
    }
    if (c.nvtx != nullptr) {
        nvtx_region_register(*c.nvtx, address, bytes);
    }
    if (arena.band_bytes != 0) {
        const int err = guarded(arena.user_context, "harena_alloc", [&] {
            return c.guards.slice(arena, guard_call(arena, nullptr),
                                  GuardBand{top, top + bytes, top + size, false,
                                            name.known() ? name.text() : "an unnamed allocation", ""});
        });
        if (err != HARENA_OK) {
            (void)release(arena, address, bytes, "harena_alloc");
            return err;
        }
    }
    return HARENA_OK;
}

std::string free_mismatch(harena_arena &arena, uint64_t begin, uint64_t size, bool *found) {
    ArenaChecks &c = checks_of(arena);
    if (!c.records.kept()) {
        *found = true;
        return std::string();
    }
    return c.records.mismatch(begin, size, found);
}

// It ends for the checker whether or not its bytes come back now, and its
// band is checked.
int released(harena_arena &arena, uint64_t address) {
    ArenaChecks &c = checks_of(arena);
    if (c.nvtx != nullptr) {
        nvtx_region_unregister(*c.nvtx, address);
    }
    const uint64_t begin = address - arena.base;
    c.records.forget(begin);
    return arena.band_bytes != 0 ? c.guards.release(arena, guard_call(arena, nullptr), begin) : HARENA_OK;
}

void evicted(harena_arena &arena, uint64_t offset) {
    checks_of(arena).records.forget(offset);
}

// Guard mode: a band at the start of a frame a scope or harena_push opens
// (planned pipelines lay out their own) and one after its reservation.
// The reservation's band starts at its last byte asked for.
int guard_frame(harena_arena &arena, const Frame &f, uint64_t lead, uint64_t reserved) {
    GuardBands &guards = checks_of(arena).guards;
    const std::string frame = "frame #" + std::to_string(f.id);
    const GuardCall call = guard_call(arena, nullptr);
    int result = guards.slice(arena, call,
                              GuardBand{f.offset, f.offset, f.offset + lead, true, "the first slice of " + frame, ""});
    if (reserved != 0 && result == HARENA_OK) {
        const uint64_t start = f.offset + lead;
        result = guards.slice(arena, call,
                              GuardBand{start, start + reserved, f.offset + f.reserved, false,
                                        "the reservation of " + frame, ""});
    }
    return result;
}

void pushed(harena_arena &arena, const Frame &frame, uint64_t lead, uint64_t reserved, uint64_t reserve_bytes,
            bool banded, const char *function) {
    ArenaChecks &c = checks_of(arena);
    if (c.nvtx != nullptr && reserved != 0) {
        nvtx_reservation_register(*c.nvtx, arena.base + frame.offset + lead, reserved);
    }
    if (banded) {
        // A band that cannot be filled is reported; the frame stays usable.
        (void)guarded(arena.user_context, function, [&] { return guard_frame(arena, frame, lead, reserve_bytes); });
    }
}

int popping(harena_arena &arena, const Frame &frame) {
    return arena.band_bytes != 0 ? checks_of(arena).guards.pop(arena, guard_call(arena, nullptr), frame.offset) :
                                   HARENA_OK;
}

int popped(harena_arena &arena, const Frame &frame) {
    ArenaChecks &c = checks_of(arena);
    if (c.nvtx != nullptr) {
        nvtx_frame_popped(*c.nvtx, arena.base + frame.offset);
    }
    return c.records.kept() ? c.records.drop_from(arena.user_context, frame.id, frame.offset) : HARENA_OK;
}

// The pipeline's slices start one band into the frame.
int pipeline_entered(harena_arena &arena, const Frame &frame, void *user_context, const char *pipeline) {
    GuardBand band{frame.offset, frame.offset, frame.offset + guard_layout::first_slice_offset(arena.band_bytes), true,
                   "the first slice of its frame", std::string("pipeline '") + pipeline + "'"};
    return checks_of(arena).guards.slice(arena, guard_call(arena, user_context), std::move(band));
}

void region_attached(harena_arena &arena, uint64_t address, uint64_t bytes) {
    ArenaChecks &c = checks_of(arena);
    nvtx_heap_register(c.nvtx, &arena, address, bytes);
    if (c.nvtx != nullptr) {
        nvtx_heap_set_context(c.nvtx, bound_work_context(arena.cuda));
    }
}

void region_detached(harena_arena &arena) {
    nvtx_heap_unregister(checks_of(arena).nvtx, &arena);
}

void context_bound(harena_arena &arena) {
    ArenaChecks &c = checks_of(arena);
    if (c.nvtx != nullptr) {
        nvtx_heap_set_context(c.nvtx, bound_work_context(arena.cuda));
    }
}

bool tool_attached() {
    return nvtx::attached();
}

void capturing(bool capturing) {
    nvtx_capturing(capturing);
}

bool replay_launching(harena_arena &arena, uint64_t top) {
    NvtxHeap *const heap = nvtx_heap_of(arena);
    const uint64_t end = arena.base + arena.capacity;
    if (heap == nullptr || top >= end) {
        return false;
    }
    nvtx_reservation_register(*heap, top, end - top);
    return true;
}

void replay_launched(harena_arena &arena, uint64_t top) {
    nvtx_frame_popped(*nvtx_heap_of(arena), top);
}

void read_stats(const harena_arena &arena, harena_stats *stats) {
    const GuardCounts guard = arena.checks->guards.counts();
    stats->guard_checks = guard.checks;
    stats->guard_damaged = guard.damaged;
}

void reset_stats(harena_arena &arena) {
    checks_of(arena).guards.reset_counts();
}

const CheckingHooks kHooks = {create, destroy, watching, debug, allocated,
                              free_mismatch, released, evicted, pushed, popping,
                              popped, pipeline_entered, region_attached, region_detached, context_bound,
                              tool_attached, capturing, replay_launching, replay_launched, read_stats,
                              reset_stats};

[[maybe_unused]] const bool installed = (install_checking(&kHooks), true);

}  // namespace

}  // namespace harena::detail

// What the feature library's link options name, so that this file is linked.
extern "C" const void *const harena_checking_feature = &harena::detail::kHooks;
