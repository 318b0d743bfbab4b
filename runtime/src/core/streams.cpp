// The core's side of stream order (core/streams.h): which streams an arena
// takes, and the one stream of an arena without the feature.
#include "core/streams.h"

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

int check_stream(const ArenaCore &arena, void *stream, const char *function) {
    if (stream != nullptr && arena.device_interface == nullptr) {
        return report_error(arena.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                            "%s: arena %p holds host memory, which no stream orders; pass NULL as the stream",
                            function, static_cast<const void *>(&arena));
    }
    return HARENA_OK;
}

int change_single_stream(ArenaCore &arena, void *stream, const char *function) {
    // No frame was ever pushed: no byte was used on the old home.
    if (arena.next_frame_id == 1) {
        arena.home_stream = stream;
        return HARENA_OK;
    }
    return report_error(arena.user_context, HARENA_ERROR_INVALID_ARGUMENT,
                        "%s: arena %p runs on stream %p, and this work is on stream %p; the runtime was linked "
                        "without stream order (HalideArena::streams), which orders bytes across streams: link it, "
                        "or use one stream per arena",
                        function, static_cast<const void *>(&arena), arena.home_stream, stream);
}

int retire_stream(harena_arena &arena, void *stream, const char *function) {
    if (arena.streams_state != nullptr) {
        return stream_order->retire(arena, stream, function);
    }
    if (arena.home_stream == stream && arena.depth.load(std::memory_order_relaxed) != 0) {
        return report_error(arena.user_context, HARENA_ERROR_ARENA_IN_USE,
                            "%s: stream %p cannot be retired from arena %p: its frames run on it; pop them first",
                            function, stream, static_cast<void *>(&arena));
    }
    return HARENA_OK;
}

}  // namespace harena::detail
