// Measuring arenas: a planned pipeline called with one stops where its frame
// would open, after its argument checks and before any stage runs, and leaves
// the bytes that call needs. This is how a program learns the arena size for
// actual parameter values rather than the declared worst case.
#include "core/arena.h"
#include "core/errors.h"
#include "growth/state.h"

using namespace harena::detail;

extern "C" {

int harena_create_measuring(harena_arena **arena) {
    if (arena == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_create_measuring: the output pointer is NULL");
    }
    harena_options options;
    harena_options_init(&options);
    // In guard mode planned pipelines need room for their bands too.
    read_environment(options);
    *arena = nullptr;
    harena_arena *a = new_arena(nullptr, options);
    if (a == nullptr) {
        return report_error(nullptr, HARENA_ERROR_OUT_OF_MEMORY, "harena_create_measuring: out of host memory");
    }
    if (a->growth_state == nullptr) {
        delete_arena(a);
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_create_measuring: measuring arenas need the growth feature, which this program "
                            "does not link; link HalideArena::growth with its link options (or HalideArena::runtime)");
    }
    growth_of(*a).measure.start();  // no memory: the backing stays none
    if (int err = publish(a, arena, "harena_create_measuring")) {
        delete_arena(a);
        return err;
    }
    return HARENA_OK;
}

int harena_measured_bytes(const harena_arena *arena, uint64_t *bytes, uint64_t *worst_case_bytes) {
    if (int err = check_live(arena, "harena_measured_bytes", nullptr)) {
        return err;
    }
    if (arena->growth_state == nullptr || !growth_of(*arena).measure.on()) {
        return report_error(arena->user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_measured_bytes: arena %p is not a measuring arena (harena_create_measuring)",
                            static_cast<const void *>(arena));
    }
    if (bytes != nullptr) {
        *bytes = growth_of(*arena).measure.bytes();
    }
    if (worst_case_bytes != nullptr) {
        *worst_case_bytes = growth_of(*arena).measure.worst_case_bytes();
    }
    return HARENA_OK;
}

}  // extern "C"
