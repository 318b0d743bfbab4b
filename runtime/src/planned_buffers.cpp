// Release of planned buffers that Halide keeps on host and device. The pass
// binds their device part to an arena slice and leaves the host part to
// halide_device_and_host_malloc; where Halide would free both, planned
// pipelines call these instead, so the slice never reaches Halide's device
// free (its allocation cache, or cuMemFree on an interior pointer).
#include "graph_host_blocks.h"
#include "harena/runtime.h"

extern "C" {

// From the Halide runtime every planned pipeline links; weak so that the
// arena runtime links into programs without one.
void halide_free(void *user_context, void *ptr) __attribute__((weak));

int harena_planned_host_free(void *user_context, halide_buffer_t *buf) {
    if (buf == nullptr) {
        return 0;
    }
    // A block a graph being captured owns (harena_key_host_malloc) stays:
    // the graph copies from it at every replay.
    if (buf->host != nullptr && halide_free != nullptr &&
        !harena::detail::held_by_capture(user_context, buf->host)) {
        halide_free(user_context, buf->host);
    }
    buf->host = nullptr;
    buf->device = 0;
    buf->device_interface = nullptr;
    buf->set_host_dirty(false);
    buf->set_device_dirty(false);
    return 0;
}

void harena_planned_host_free_as_destructor(void *user_context, void *buf) {
    (void)harena_planned_host_free(user_context, static_cast<halide_buffer_t *>(buf));
}

}  // extern "C"
