// Host companions (companion/state.h): the feature's hooks (core/companion.h),
// installed when this file is linked (the feature library's link options name
// harena_companion_feature), creation and growth, and the entry points
// planned GPU pipelines call for their host-only buffers.
#include "companion/state.h"

#include <algorithm>
#include <cstdio>
#include <new>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

// Aligned as its owner, whose pipelines' offsets it holds, and as deep. It
// grows whatever the owner's options: no address in it outlives a call, so a
// region replaced between calls strands nothing, and its size was never the
// caller's choice unless reserved (after which a call that fits does not
// grow it).
harena_arena *new_companion(const harena_arena &owner) {
    harena_options options;
    harena_options_init(&options);
    options.alignment = owner.alignment;
    options.max_frames = static_cast<uint32_t>(owner.frames.size());
    options.grow = 1;
    harena_arena *companion = new_arena(nullptr, options);
    if (companion != nullptr) {
        companion->user_context = owner.user_context;
    }
    return companion;
}

}  // namespace

int HostCompanion::reserve(harena_arena &owner, uint64_t capacity, const char *function) {
    const uint64_t rounded = std::max(round_up(std::min(capacity, kMaxCapacity + 1), owner.alignment), owner.alignment);
    if (rounded > kMaxCapacity) {
        return report_error(owner.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: a host companion of %s is above the %s an arena can hold", function,
                            bytes_text(capacity).text, bytes_text(kMaxCapacity).text);
    }
    harena_arena *companion = get();
    if (companion != nullptr) {
        if (rounded <= companion->capacity) {
            return HARENA_OK;
        }
        if (busy()) {
            return report_error(owner.user_context, HARENA_ERROR_ARENA_IN_USE,
                                "%s: the host companion of arena %p has %u frame(s) pushed; resize it between runs",
                                function, static_cast<void *>(&owner),
                                companion->depth.load(std::memory_order_relaxed));
        }
        return host_acquire(*companion, rounded);
    }
    companion = new_companion(owner);
    if (companion == nullptr) {
        return report_error(owner.user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "%s: out of host memory for the host companion of arena %p", function,
                            static_cast<void *>(&owner));
    }
    if (int err = host_acquire(*companion, rounded)) {
        delete_arena(companion);
        return err;
    }
    arena_.store(companion, std::memory_order_release);
    return HARENA_OK;
}

bool HostCompanion::busy() const {
    const harena_arena *companion = get();
    return companion != nullptr && companion->depth.load(std::memory_order_relaxed) != 0;
}

void HostCompanion::destroy() {
    harena_arena *companion = arena_.exchange(nullptr, std::memory_order_acq_rel);
    if (companion != nullptr) {
        host_release(*companion);
        delete_arena(companion);
    }
}

namespace {

bool create(harena_arena &arena) {
    arena.companion_state = new (std::nothrow) HostCompanion;
    return arena.companion_state != nullptr;
}

bool busy(const harena_arena &arena) {
    return arena.companion_state->busy();
}

void release(harena_arena &arena) {
    arena.companion_state->destroy();
}

void destroy(harena_arena &arena) {
    delete arena.companion_state;
    arena.companion_state = nullptr;
}

harena_arena *host(const harena_arena &arena) {
    return arena.companion_state->get();
}

const CompanionHooks kHooks = {create, busy, release, destroy, host};

[[maybe_unused]] const bool installed = (install_host_companion(&kHooks), true);

}  // namespace

}  // namespace harena::detail

// What the feature library's link options name, so that this file is linked.
extern "C" const void *const harena_companion_feature = &harena::detail::kHooks;

using namespace harena::detail;

namespace {

// The companion cannot hold this call's frame: it grows only between calls
// (an enclosing planned call has a frame pushed), or it could not grow.
int report_too_small(harena_arena &owner, const harena_arena &companion, const char *pipeline, const char *buffers,
                     uint64_t bytes, uint64_t worst_case_bytes) {
    const uint64_t in_use = top_of(companion);
    char worst[96] = "";
    if (worst_case_bytes != 0) {
        std::snprintf(worst, sizeof worst, " (%s in the worst case)", bytes_text(worst_case_bytes).text);
    }
    return report_error(owner.user_context, HARENA_ERROR_OVERFLOW,
                        "pipeline '%s' needs %s of host memory for its host buffers (%s) in this run%s but the host "
                        "companion of arena %p has %s left of %s (%s in use by %u enclosing frame(s)); it grows "
                        "only between calls: reserve at least %s with harena_reserve_host_companion before the "
                        "outermost call",
                        pipeline, bytes_text(bytes).text, buffers, worst, static_cast<void *>(&owner),
                        bytes_text(companion.capacity - in_use).text, bytes_text(companion.capacity).text,
                        bytes_text(in_use).text, companion.depth.load(std::memory_order_relaxed),
                        bytes_text(in_use + round_up(std::max(bytes, worst_case_bytes), companion.alignment)).text);
}

// The device frame the pipeline's harena_pipeline_enter pushed, which
// checked the arena and the plan's alignment, is on top.
int check_entered(harena_arena &arena, const char *pipeline, const char *function) {
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (arena.device_interface == nullptr || depth == 0 || !arena.frames[depth - 1].pipeline) {
        return report_error(arena.user_context, HARENA_ERROR_NO_FRAME,
                            "%s: pipeline '%s' must enter device arena %p (harena_pipeline_enter) before its host "
                            "companion; rebuild it with this version of the arena pass",
                            function, pipeline, static_cast<void *>(&arena));
    }
    return HARENA_OK;
}

int host_enter(void *user_context, const char *pipeline, const char *buffers, uint64_t bytes,
               uint64_t worst_case_bytes) {
    const char *function = "harena_pipeline_host_enter";
    if (int err = check_live(user_context, function, user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    if (int err = check_entered(arena, pipeline, function)) {
        return err;
    }
    HostCompanion &companion = companion_of(arena);
    if (companion.get() == nullptr &&
        companion.reserve(arena, std::max(bytes, worst_case_bytes), function) != HARENA_OK) {
        return report_error(arena.user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "pipeline '%s' needs %s of host memory for its host buffers (%s), but the host "
                            "companion of arena %p could not be allocated",
                            pipeline, bytes_text(std::max(bytes, worst_case_bytes)).text, buffers,
                            static_cast<void *>(&arena));
    }
    harena_arena &host = *companion.get();
    make_room(host, bytes, function);
    const uint64_t left = host.capacity - top_of(host);
    if (bytes > left || round_up(bytes, host.alignment) > left) {
        host.stats.overflow();
        return report_too_small(arena, host, pipeline, buffers, bytes, worst_case_bytes);
    }
    return push_frame(host, bytes, true, nullptr, function);
}

// The companion's top frame, after reporting why there is none.
const Frame *top_host_frame(void *user_context, const char *function) {
    if (check_live(user_context, function, user_context)) {
        return nullptr;
    }
    const harena_arena *host = companion_of(*static_cast<harena_arena *>(user_context)).get();
    const uint32_t depth = host != nullptr ? host->depth.load(std::memory_order_relaxed) : 0;
    if (depth == 0) {
        report_error(user_context, HARENA_ERROR_FRAME_STACK_EMPTY,
                     "%s: the host companion of arena %p has no frame pushed by harena_pipeline_host_enter",
                     function, user_context);
        return nullptr;
    }
    return &host->frames[depth - 1];
}

}  // namespace

extern "C" {

// The work above allocates host memory (messages); nothing it throws leaves
// the C entry point.
int harena_pipeline_host_enter(void *user_context, const char *pipeline, const char *buffers, uint64_t bytes,
                               uint64_t worst_case_bytes) {
    pipeline = pipeline != nullptr ? pipeline : "(unnamed)";
    buffers = buffers != nullptr ? buffers : "";
    return guarded(user_context, "harena_pipeline_host_enter",
                   [&] { return host_enter(user_context, pipeline, buffers, bytes, worst_case_bytes); });
}

uint64_t harena_pipeline_host_base(void *user_context) {
    const Frame *top = top_host_frame(user_context, "harena_pipeline_host_base");
    return top != nullptr ? companion_of(*static_cast<harena_arena *>(user_context)).get()->base + top->offset : 0;
}

void harena_pipeline_host_exit_as_destructor(void *user_context, void *frame_base_as_pointer) {
    const char *function = "harena_pipeline_host_exit";
    const Frame *top = top_host_frame(user_context, function);
    if (top == nullptr) {
        return;
    }
    harena_arena &host = *companion_of(*static_cast<harena_arena *>(user_context)).get();
    const uint64_t base = reinterpret_cast<uint64_t>(frame_base_as_pointer);
    if (host.base + top->offset != base) {
        report_error(user_context, HARENA_ERROR_FRAME_NOT_TOP,
                     "%s: the host frame at 0x%llx is not the top frame of the host companion of arena %p (the "
                     "top is at 0x%llx)",
                     function, static_cast<unsigned long long>(base), user_context,
                     static_cast<unsigned long long>(host.base + top->offset));
        return;
    }
    (void)pop_frame(host, top->id, true, function);
}

int harena_reserve_host_companion(harena_arena *arena, uint64_t bytes) {
    const char *function = "harena_reserve_host_companion";
    if (int err = check_live(arena, function, nullptr)) {
        return err;
    }
    if (arena->device_interface == nullptr || bytes == 0) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            bytes == 0 ? "%s: %p: a host companion of 0 bytes" :
                                         "%s: arena %p holds host memory (or none: a measuring arena); only a "
                                         "device arena has a host companion, a host arena holds its pipelines' "
                                         "host buffers itself",
                            function, static_cast<void *>(arena));
    }
    return guarded(arena->user_context, function, [&] { return companion_of(*arena).reserve(*arena, bytes, function); });
}

}  // extern "C"
