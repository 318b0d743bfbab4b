// How the stream order feature (streams/) attaches to a device arena, as the
// checking feature does (core/checking.h): through this table, which the
// feature installs when it is linked, and ArenaCore::streams_state, its
// state of the arena. The core calls it only where work changes stream: a
// push on a stream other than the home (the top frame's), an allocation
// past ArenaCore::alloc_limit, and an allocation or free on another stream
// than the home (harena_alloc_on_stream, harena_free_on_stream). An arena
// without the feature runs on one stream: the one its first frame is pushed
// on; work on any other is refused, since nothing would order it.
#pragma once

#include <cstdint>

#include "core/arena_core.h"
#include "harena/runtime.h"

namespace harena::detail {

struct StreamHooks {
    // Creation of a device arena: its stream order. False without host memory.
    bool (*create)(harena_arena &arena);
    void (*destroy)(harena_arena &arena);
    // The order's lock, which the core holds (StreamOrderLock) around take,
    // note_frame_use, label_free and unlabel_free.
    void (*lock)(harena_arena &arena);
    void (*unlock)(harena_arena &arena);
    // A frame on `stream` is about to be pushed at the top, reserving
    // [top, reserved_end): the home becomes `stream` and the reserved bytes
    // cross to it. HARENA_OK or an error it reported.
    int (*push)(harena_arena &arena, void *stream, uint64_t reserved_end, const char *function);
    // `frame` popped with stream work (Frame::streams): its bytes up to
    // `old_top` are free again; `next` is the new top frame's stream.
    void (*pop)(harena_arena &arena, const Frame &frame, uint64_t old_top, void *next);
    // Locked: bytes [begin, end) were taken for `stream`, which waits for
    // their last users. HARENA_OK or an error it reported.
    int (*take)(harena_arena &arena, uint64_t begin, uint64_t end, void *stream, const char *function);
    // Locked: `stream`, not the home, allocated or freed in the top frame.
    void (*note_frame_use)(harena_arena &arena, void *stream);
    // Locked: a free of [begin, end) on `stream` may give the bytes back at
    // once; they are labelled first, and unlabelled where they were not.
    void (*label_free)(harena_arena &arena, uint64_t begin, uint64_t end, void *stream);
    void (*unlabel_free)(harena_arena &arena, uint64_t begin, uint64_t end, void *stream);
    // harena_retire_stream after its checks of the arena.
    int (*retire)(harena_arena &arena, void *stream, const char *function);
    // The statistics (crossings, events, waits), and their reset.
    void (*read_stats)(const harena_arena &arena, harena_stats *stats);
    void (*reset_stats)(harena_arena &arena);
};

// The stream order feature's hooks, or null where it is not linked.
extern const StreamHooks *stream_order;
// Called once by the feature, at start-up.
void install_stream_order(const StreamHooks *hooks);

// The stream order's lock of an arena that has one, held while alive.
class StreamOrderLock {
public:
    explicit StreamOrderLock(harena_arena &arena)
        : arena_(arena) {
        stream_order->lock(arena_);
    }
    ~StreamOrderLock() {
        stream_order->unlock(arena_);
    }
    StreamOrderLock(const StreamOrderLock &) = delete;
    StreamOrderLock &operator=(const StreamOrderLock &) = delete;

private:
    harena_arena &arena_;
};

// HARENA_OK for a stream an arena can order work on: any on a device arena,
// only NULL on a host arena (reported).
int check_stream(const ArenaCore &arena, void *stream, const char *function);

// An arena without stream order moves to `stream` (a push, an allocation or
// a free on it): allowed before its first frame, refused (reported) after.
int change_single_stream(ArenaCore &arena, void *stream, const char *function);

// harena_retire_stream after its checks of the arena. Without stream order
// no free byte waits for a stream: only a frame on it keeps it.
int retire_stream(harena_arena &arena, void *stream, const char *function);

}  // namespace harena::detail
