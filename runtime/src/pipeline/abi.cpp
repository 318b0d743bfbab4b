// The entry points planned pipelines call: their user_context is the arena.
// Every check runs against the registry first, so a wrong user_context is
// reported instead of dereferenced.
#include "core/arena.h"
#include "core/errors.h"

#include <cstdio>
#include <string>

using namespace harena::detail;

namespace {

const char *memory_kind(const halide_device_interface_t *device_interface) {
    return device_interface ? "device" : "host";
}

int check_pipeline_arena(void *user_context, const char *pipeline) {
    if (user_context == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "pipeline '%s' was called with a NULL user_context; a planned pipeline takes the "
                            "harena_arena * (harena::Arena::get()) as its first argument",
                            pipeline);
    }
    if (!is_registered(user_context)) {
        return report_error(user_context, HARENA_ERROR_NOT_AN_ARENA,
                            "pipeline '%s' was called with user_context %p, which is not a live harena arena "
                            "(destroyed, never created, or another object); pass the harena_arena * as its "
                            "first argument",
                            pipeline, user_context);
    }
    return HARENA_OK;
}

// Refused rather than honoured: honouring would need frames aligned beyond the
// arena's own alignment, which every other frame and allocation is laid out
// by, and an arena's alignment is chosen once, at creation.
int check_alignment(harena_arena &arena, const char *pipeline, uint64_t alignment) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
        return report_error(&arena, HARENA_ERROR_INVALID_ARGUMENT,
                            "pipeline '%s' gave alignment %llu, which is not a power of two; rebuild it with this "
                            "version of the arena pass",
                            pipeline, static_cast<unsigned long long>(alignment));
    }
    if (arena.alignment % alignment != 0) {
        return report_error(&arena, HARENA_ERROR_INCOMPATIBLE_ALIGNMENT,
                            "pipeline '%s' aligns its buffers to %llu bytes but arena %p was created with "
                            "alignment %llu, so its slices would be less aligned than it was planned for; create "
                            "the arena with harena_options.alignment of at least %llu",
                            pipeline, static_cast<unsigned long long>(alignment),
                            static_cast<const void *>(&arena), static_cast<unsigned long long>(arena.alignment),
                            static_cast<unsigned long long>(alignment));
    }
    return HARENA_OK;
}

// The arena holds the memory the pipeline places its buffers in, aligned as
// its plan assumes.
int check_compatible(harena_arena &arena, const char *pipeline, const halide_device_interface_t *device_interface,
                     uint64_t alignment) {
    if (arena.device_interface != device_interface) {
        return report_error(&arena, HARENA_ERROR_INCOMPATIBLE_DEVICE_INTERFACE,
                            "pipeline '%s' places its buffers in %s memory (device interface %p) but arena %p "
                            "holds %s memory (device interface %p); create the arena with the pipeline's device "
                            "interface",
                            pipeline, memory_kind(device_interface), static_cast<const void *>(device_interface),
                            static_cast<void *>(&arena), memory_kind(arena.device_interface),
                            static_cast<const void *>(arena.device_interface));
    }
    return check_alignment(arena, pipeline, alignment);
}

// worst_case_bytes 0: the pipeline has no compile-time worst case (sizes
// without a declared maximum), so only this call's need can be quoted.
int report_overflow(harena_arena &arena, const char *pipeline, uint64_t bytes, uint64_t worst_case_bytes) {
    const uint64_t in_use = top_of(arena);
    const uint64_t left = arena.capacity - in_use;
    const uint64_t needed = in_use + round_up(bytes, arena.alignment);
    char worst[96] = "";
    char advice[200];
    if (worst_case_bytes == 0) {
        std::snprintf(advice, sizeof advice,
                      "; it has no worst case (some sizes have no declared maximum): size the arena for each "
                      "call's arguments (harena::measure) or let it grow (harena_options.grow)");
    } else {
        std::snprintf(worst, sizeof worst, " (%s in the worst case)", bytes_text(worst_case_bytes).text);
        const uint64_t covering =
            in_use + round_up(worst_case_bytes > bytes ? worst_case_bytes : bytes, arena.alignment);
        std::snprintf(advice, sizeof advice, ", or %s to cover every run within its declared maxima",
                      bytes_text(covering).text);
    }
    return report_error(&arena, HARENA_ERROR_OVERFLOW,
                        "pipeline '%s' needs %s of arena for this run%s but arena %p has %s left of %s (%s in use "
                        "by %u enclosing frame(s)); create the arena with at least %s%s",
                        pipeline, bytes_text(bytes).text, worst, static_cast<void *>(&arena),
                        bytes_text(left).text, bytes_text(arena.capacity).text, bytes_text(in_use).text,
                        arena.depth.load(std::memory_order_relaxed), bytes_text(needed).text, advice);
}

// Why a pipeline must not run during a graph capture, or null: it declared
// host work a graph would not repeat, or, planned, it runs in guard mode.
const char *capture_refusal(const harena_arena &arena, uint32_t traits, bool planned) {
    if ((traits & HARENA_PIPELINE_CAPTURABLE) == 0) {
        return "declared itself not capturable: it does work a graph would not repeat (<NAME>_ARENA_NOT_CAPTURABLE "
               "in its plan header says which)";
    }
    if (planned && arena.band_bytes != 0) {
        return "runs in guard mode, whose bands are copied to and from the host around each slice";
    }
    return nullptr;
}

}  // namespace

extern "C" {

static int harena_pipeline_enter_unguarded(void *user_context, const char *pipeline, const halide_device_interface_t *device_interface,
                                           uint64_t bytes, uint64_t worst_case_bytes, uint32_t traits, uint64_t alignment) {
    if (pipeline == nullptr) {
        pipeline = "(unnamed)";
    }
    if (int err = check_pipeline_arena(user_context, pipeline)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    // Neither is an error: a measuring arena gives the caller the size
    // instead of a run, and a call refused during a graph capture runs again,
    // normally, after it. Guard mode copies bands to and from the host around
    // each slice, which a graph would not repeat (and a capture does not
    // allow).
    // Only a measuring arena has no memory: other arenas skip the feature.
    if (arena.backing == Backing::none && arena.growth_state != nullptr &&
        growth->measured(arena, bytes, worst_case_bytes)) {
        return HARENA_MEASURED;
    }
    if (arena.capture.refuses(pipeline, capture_refusal(arena, traits, true))) {
        return HARENA_NOT_CAPTURABLE;
    }
    if (int err = check_compatible(arena, pipeline, device_interface, alignment)) {
        return err;
    }
    make_room(arena, bytes, "harena_pipeline_enter");
    const uint64_t in_use = top_of(arena);
    const uint64_t left = arena.capacity - in_use;
    if (bytes > left || round_up(bytes, arena.alignment) > left) {
        arena.stats.overflow();
        return report_overflow(arena, pipeline, bytes, worst_case_bytes);
    }
    if (int err = push_frame(arena, bytes, true, nullptr, "harena_pipeline_enter")) {
        return err;
    }
    Frame &frame = arena.frames[arena.depth.load(std::memory_order_relaxed) - 1];
    if (arena.band_bytes != 0 && (traits & HARENA_PIPELINE_GUARDS) != 0) {
        if (int err = checking->pipeline_entered(arena, frame, user_context, pipeline)) {
            (void)pop_frame(arena, frame.id, true, "harena_pipeline_enter");
            return err;
        }
    }
    activate(&frame.scope, &arena);
    return HARENA_OK;
}

// The work above allocates host memory (names, records); nothing it throws
// leaves the C entry point.
int harena_pipeline_enter(void *user_context, const char *pipeline, const halide_device_interface_t *device_interface, uint64_t bytes, uint64_t worst_case_bytes, uint32_t traits, uint64_t alignment) {
    return harena::detail::guarded(user_context, "harena_pipeline_enter", [&] { return harena_pipeline_enter_unguarded(user_context, pipeline, device_interface, bytes, worst_case_bytes, traits, alignment); });
}

int harena_pipeline_declare(void *user_context, uint32_t traits) {
    if (user_context == nullptr || !is_registered(user_context)) {
        return HARENA_OK;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    return arena.capture.refuses("(one that plans nothing)", capture_refusal(arena, traits, false)) ? HARENA_NOT_CAPTURABLE :
                                                                                                      HARENA_OK;
}

uint64_t harena_pipeline_base(void *user_context) {
    if (check_live(user_context, "harena_pipeline_base", user_context)) {
        return 0;
    }
    const harena_arena &arena = *static_cast<const harena_arena *>(user_context);
    for (uint32_t d = arena.depth.load(std::memory_order_relaxed); d > 0; d--) {
        if (arena.frames[d - 1].pipeline) {
            return arena.base + arena.frames[d - 1].offset;
        }
    }
    report_error(user_context, HARENA_ERROR_FRAME_STACK_EMPTY,
                 "harena_pipeline_base: arena %p has no frame pushed by harena_pipeline_enter", user_context);
    return 0;
}

void harena_pipeline_exit_as_destructor(void *user_context, void *frame_base_as_pointer) {
    const char *function = "harena_pipeline_exit";
    if (check_live(user_context, function, user_context)) {
        return;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    const uint64_t base = reinterpret_cast<uint64_t>(frame_base_as_pointer);
    const uint32_t depth = arena.depth.load(std::memory_order_relaxed);
    if (depth == 0) {
        report_error(user_context, HARENA_ERROR_FRAME_STACK_EMPTY,
                     "%s: arena %p has no frame to pop (the pipeline frame at 0x%llx was already popped)", function,
                     user_context, static_cast<unsigned long long>(base));
        return;
    }
    Frame &top = arena.frames[depth - 1];
    if (!top.pipeline || arena.base + top.offset != base) {
        report_error(user_context, HARENA_ERROR_FRAME_NOT_TOP,
                     "%s: the pipeline frame at 0x%llx is not the top frame of arena %p (the top is #%llu at "
                     "0x%llx, depth %u); a frame pushed during the pipeline was not popped",
                     function, static_cast<unsigned long long>(base), user_context,
                     static_cast<unsigned long long>(top.id), static_cast<unsigned long long>(arena.base + top.offset),
                     depth);
        return;
    }
    // Leaving the frame pushed when the activation cannot be undone keeps the
    // thread's scope chain pointing at valid storage.
    if (deactivate(&top.scope, function)) {
        return;
    }
    (void)pop_frame(arena, top.id, true, function);
}

}  // extern "C"
