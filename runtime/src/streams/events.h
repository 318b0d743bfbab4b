// What ordering work across streams needs from the driver: CUDA's events
// (looked up in libcuda), or a stand-in that tests install to count and
// check crossings without a GPU.
#pragma once

namespace harena::detail {

struct StreamEventBackend {
    // Each returns 0 or a driver error code.
    // The context a stream belongs to; for the null stream, the current one.
    int (*context_of)(void *stream, void **context);
    int (*event_create)(void *context, void **event);
    void (*event_destroy)(void *context, void *event);
    // Records `event` (made in `context`, the stream's) on `stream`.
    int (*record)(void *context, void *event, void *stream);
    // Makes `stream` (of `context`) wait for the event's last record.
    int (*wait)(void *context, void *stream, void *event);
    // Waits for all work in the context: what a crossing falls back to when
    // a record fails.
    int (*synchronize)(void *context);
};

// The backend in use: a test's if one is set, else CUDA's; null where libcuda
// is missing or lacks the event functions.
const StreamEventBackend *stream_event_backend();

// Tests: replaces the backend (null restores CUDA's).
void set_stream_event_backend(const StreamEventBackend *backend);

}  // namespace harena::detail
