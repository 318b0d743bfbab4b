// Per-thread activation: a chain of scopes through the caller's own storage,
// innermost first, read by the override without a lock.
#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

__thread harena_scope *innermost_scope = nullptr;

void activate(harena_scope *scope, harena_arena *arena) {
    scope->arena = arena;
    scope->outer = innermost_scope;
    innermost_scope = scope;
}

int deactivate(harena_scope *scope, const char *function) {
    if (innermost_scope != scope) {
        return report_error(scope->arena ? scope->arena->user_context : nullptr, HARENA_ERROR_SCOPE_NOT_INNERMOST,
                            "%s: the scope on arena %p is not the innermost scope of this thread%s; end scopes "
                            "in the reverse order of their beginnings, on the thread that began them",
                            function, static_cast<void *>(scope->arena),
                            innermost_scope == nullptr ? " (this thread has none)" : "");
    }
    innermost_scope = scope->outer;
    scope->outer = nullptr;
    return HARENA_OK;
}

SuspendScopes::SuspendScopes()
    : saved_(innermost_scope) {
    innermost_scope = nullptr;
}

SuspendScopes::~SuspendScopes() {
    innermost_scope = saved_;
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

int harena_scope_begin(harena_scope *scope, harena_arena *arena) {
    if (scope == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_scope_begin: the scope is NULL");
    }
    *scope = harena_scope{};
    if (int err = check_live(arena, "harena_scope_begin", nullptr)) {
        return err;
    }
    harena_frame frame;
    if (int err = push_frame(*arena, 0, false, &frame, "harena_scope_begin")) {
        return err;
    }
    arena->frames[arena->depth.load(std::memory_order_relaxed) - 1].scope_owned = true;
    activate(scope, arena);
    scope->frame = frame;
    return HARENA_OK;
}

int harena_scope_attach(harena_scope *scope, harena_arena *arena) {
    if (scope == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT, "harena_scope_attach: the scope is NULL");
    }
    *scope = harena_scope{};
    if (int err = check_live(arena, "harena_scope_attach", nullptr)) {
        return err;
    }
    arena->attached_scopes.fetch_add(1, std::memory_order_relaxed);
    activate(scope, arena);
    return HARENA_OK;
}

int harena_scope_end(harena_scope *scope) {
    if (scope == nullptr || scope->arena == nullptr) {
        return report_error(nullptr, HARENA_ERROR_INVALID_ARGUMENT,
                            "harena_scope_end: %s", scope == nullptr ? "the scope is NULL" : "the scope is not active");
    }
    if (int err = check_live(scope->arena, "harena_scope_end", nullptr)) {
        return err;
    }
    // While frames pushed inside the scope are still there, the end is
    // refused before anything changes, so that the caller can pop them and
    // end the scope again; pop_frame reports it and pops nothing.
    if (innermost_scope == scope && scope->frame.id != 0 && frame_is_buried(*scope->arena, scope->frame.id)) {
        return pop_frame(*scope->arena, scope->frame.id, false, "harena_scope_end");
    }
    if (int err = deactivate(scope, "harena_scope_end")) {
        return err;
    }
    harena_arena *arena = scope->arena;
    scope->arena = nullptr;
    if (scope->frame.id == 0) {
        arena->attached_scopes.fetch_sub(1, std::memory_order_relaxed);
        return HARENA_OK;
    }
    return pop_frame(*arena, scope->frame.id, false, "harena_scope_end");
}

harena_arena *harena_active_arena(const halide_device_interface_t *device_interface) {
    return active_arena_of(device_interface);
}

harena_arena *harena_find(const halide_device_interface_t *device_interface, uint64_t address) {
    return arena_holding(device_interface, address);
}

}  // extern "C"
