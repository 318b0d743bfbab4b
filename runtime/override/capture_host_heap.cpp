// halide_malloc and halide_free while the graph cache captures a call of a
// pipeline built without the arena feature whose host stages can read
// nothing a replay changes (graph/unplanned_calls.h): the call's host stages
// write pinned blocks the graph entry owns, which the graph's uploads copy
// from at every replay, and their frees leave the blocks to the entry.
// Everywhere else, Halide's allocator (or the one installed before) as it is.
#include "HalideRuntime.h"
#include "graph/unplanned_calls.h"

// From the Halide runtime of the program's pipelines; weak so that the
// override links into programs without one.
extern "C" halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc) __attribute__((weak));
extern "C" halide_free_t halide_set_custom_free(halide_free_t user_free) __attribute__((weak));

namespace {

halide_malloc_t previous_malloc = nullptr;
halide_free_t previous_free = nullptr;

void *capture_malloc(void *user_context, size_t size) {
    if (void *block = harena::detail::capture_host_block(size)) {
        return block;
    }
    return previous_malloc(user_context, size);
}

void capture_free(void *user_context, void *pointer) {
    if (pointer != nullptr && harena::detail::held_by_plain_capture(pointer)) {
        return;
    }
    previous_free(user_context, pointer);
}

[[maybe_unused]] const bool installed = [] {
    if (halide_set_custom_malloc == nullptr || halide_set_custom_free == nullptr) {
        return false;
    }
    previous_malloc = halide_set_custom_malloc(capture_malloc);
    previous_free = halide_set_custom_free(capture_free);
    return true;
}();

}  // namespace
