// Stream order (runtime/src/streams/state.h) against a stand-in for CUDA's
// events that logs every record and wait: bytes reused on the stream that
// last used them cost nothing, bytes that cross streams cost one record on
// the last user and one wait on the new one, and retired streams are waited
// for through the event recorded when they retired.
#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

#include "harena/runtime.h"
#include "host_arena.h"
#include "streams/events.h"

using harena::detail::StreamEventBackend;
using harena_test::dummy_interface;
using harena_test::last_error_mentions;

namespace {

void *stream(int i) {
    return reinterpret_cast<void *>(uintptr_t(0x1000 * i));
}

// What reached the stand-in driver, in order.
struct EventLog {
    struct Op {
        char kind;  // 'r' record, 'w' wait
        void *event;
        void *stream;
    };
    std::mutex mutex;
    std::vector<Op> ops;
    int events_created = 0;
    int events_destroyed = 0;
};
EventLog log_;

void *the_context = reinterpret_cast<void *>(0xC0);

const StreamEventBackend logging_backend{
    [](void *, void **context) {
        *context = the_context;
        return 0;
    },
    [](void *, void **event) {
        std::lock_guard<std::mutex> lock(log_.mutex);
        *event = reinterpret_cast<void *>(uintptr_t(0xE000 + ++log_.events_created));
        return 0;
    },
    [](void *, void *) {
        std::lock_guard<std::mutex> lock(log_.mutex);
        log_.events_destroyed++;
    },
    [](void *, void *event, void *s) {
        std::lock_guard<std::mutex> lock(log_.mutex);
        log_.ops.push_back({'r', event, s});
        return 0;
    },
    [](void *, void *s, void *event) {
        std::lock_guard<std::mutex> lock(log_.mutex);
        log_.ops.push_back({'w', event, s});
        return 0;
    },
    [](void *) { return 0; },
};

// A device arena over host memory (the runtime never touches its bytes),
// with the logging backend installed for its lifetime.
struct StreamArena {
    StreamArena() {
        log_.ops.clear();
        log_.events_created = log_.events_destroyed = 0;
        harena::detail::set_stream_event_backend(&logging_backend);
        EXPECT_EQ(harena_create_from_memory(dummy_interface(), reinterpret_cast<uint64_t>(memory.data()), memory.size(),
                                            nullptr, &arena),
                  HARENA_OK)
            << harena_last_error();
    }
    ~StreamArena() {
        EXPECT_EQ(harena_destroy(arena), HARENA_OK) << harena_last_error();
        harena::detail::set_stream_event_backend(nullptr);
    }
    harena_frame push(void *s, uint64_t reserve = 0) {
        harena_frame f{};
        EXPECT_EQ(harena_push_on_stream(arena, reserve, s, &f), HARENA_OK) << harena_last_error();
        return f;
    }
    void pop(harena_frame f) {
        EXPECT_EQ(harena_pop(arena, f), HARENA_OK) << harena_last_error();
    }
    uint64_t alloc(void *s, uint64_t bytes) {
        uint64_t address = 0;
        EXPECT_EQ(harena_alloc_on_stream(arena, bytes, nullptr, s, &address), HARENA_OK) << harena_last_error();
        return address;
    }
    void free(void *s, uint64_t address, uint64_t bytes) {
        EXPECT_EQ(harena_free_on_stream(arena, address, bytes, s), HARENA_OK) << harena_last_error();
    }
    harena_stats stats() const {
        harena_stats s{};
        EXPECT_EQ(harena_get_stats(arena, &s), HARENA_OK);
        return s;
    }

    std::vector<char> memory = std::vector<char>(1 << 20);
    harena_arena *arena = nullptr;
};

// The log holds exactly these crossings, each a record on `from` followed by
// a wait on `to` for the same event.
::testing::AssertionResult crossed(std::initializer_list<std::pair<void *, void *>> crossings) {
    if (log_.ops.size() != 2 * crossings.size()) {
        return ::testing::AssertionFailure() << log_.ops.size() << " operations for " << crossings.size() << " crossings";
    }
    size_t i = 0;
    for (const auto &[from, to] : crossings) {
        const EventLog::Op &r = log_.ops[i++], &w = log_.ops[i++];
        if (r.kind != 'r' || r.stream != from || w.kind != 'w' || w.stream != to || w.event != r.event) {
            return ::testing::AssertionFailure() << "crossing " << i / 2 << " is not a record on " << from
                                                 << " then a wait on " << to;
        }
    }
    return ::testing::AssertionSuccess();
}

TEST(StreamOrder, ReuseOnTheSameStreamRecordsNothing) {
    StreamArena a;
    for (int round = 0; round < 3; round++) {
        const harena_frame f = a.push(stream(1), 512);
        const uint64_t x = a.alloc(stream(1), 1000);
        a.free(stream(1), x, 1000);
        (void)a.alloc(stream(1), 3000);
        a.pop(f);
    }
    EXPECT_TRUE(crossed({}));
    EXPECT_EQ(a.stats().stream_crossings, 0u);
}

TEST(StreamOrder, FramesOnAlternatingStreamsCrossOncePerSwitch) {
    StreamArena a;
    void *order[] = {stream(1), stream(2), stream(2), stream(1), stream(2)};
    for (void *s : order) {
        const harena_frame f = a.push(s);
        (void)a.alloc(s, 4096);
        (void)a.alloc(s, 4096);
        a.pop(f);
    }
    EXPECT_TRUE(crossed({{stream(1), stream(2)}, {stream(2), stream(1)}, {stream(1), stream(2)}}));
    const harena_stats s = a.stats();
    EXPECT_EQ(s.stream_crossings, 3u);
    EXPECT_EQ(s.stream_events_recorded, 3u);
    EXPECT_EQ(s.stream_waits, 3u);
    EXPECT_EQ(log_.events_created, 1) << "crossings take their event from the pool";
}

TEST(StreamOrder, AReservationCrossesAtThePush) {
    StreamArena a;
    a.pop(a.push(stream(1), 8192));
    const harena_frame f = a.push(stream(2), 4096);
    EXPECT_TRUE(crossed({{stream(1), stream(2)}}));
    a.pop(f);
}

TEST(StreamOrder, BytesNoStreamUsedCrossNothing) {
    StreamArena a;
    const harena_frame outer = a.push(stream(1));
    (void)a.alloc(stream(1), 4096);
    const harena_frame inner = a.push(stream(2));  // above everything stream 1 used
    (void)a.alloc(stream(2), 4096);
    a.pop(inner);
    a.pop(outer);
    EXPECT_TRUE(crossed({}));
}

TEST(StreamOrder, AFreeOnAnotherStreamHandsItsBytesOverOnce) {
    StreamArena a;
    const harena_frame f = a.push(stream(1));
    const uint64_t x = a.alloc(stream(2), 2048);  // fresh bytes: no crossing
    a.free(stream(2), x, 2048);
    EXPECT_EQ(a.alloc(stream(1), 2048), x);
    EXPECT_TRUE(crossed({{stream(2), stream(1)}}));
    a.pop(f);
}

TEST(StreamOrder, FourStreamsTakingTurnsCrossAtEveryTurn) {
    StreamArena a;
    const harena_frame f = a.push(stream(1));
    uint64_t first = 0;
    for (int turn = 0; turn < 8; turn++) {
        void *s = stream(1 + turn % 4);
        const uint64_t x = a.alloc(s, 1 << 14);
        first = turn == 0 ? x : first;
        EXPECT_EQ(x, first) << "a LIFO free's bytes come back at once";
        a.free(s, x, 1 << 14);
    }
    a.pop(f);
    EXPECT_TRUE(crossed({{stream(1), stream(2)},
                         {stream(2), stream(3)},
                         {stream(3), stream(4)},
                         {stream(4), stream(1)},
                         {stream(1), stream(2)},
                         {stream(2), stream(3)},
                         {stream(3), stream(4)}}));
}

TEST(StreamOrder, APopReleasesOnEveryStreamThatUsedTheFrame) {
    StreamArena a;
    harena_frame f = a.push(stream(1));
    const uint64_t x = a.alloc(stream(2), 1024);
    (void)a.alloc(stream(1), 1024);
    a.free(stream(2), x, 1024);  // not the newest: back at the pop
    a.pop(f);
    f = a.push(stream(1));
    (void)a.alloc(stream(1), 2048);
    EXPECT_TRUE(crossed({{stream(2), stream(1)}}));
    a.pop(f);
}

TEST(StreamOrder, ARetiredStreamIsWaitedForThroughItsRetirementEvent) {
    StreamArena a;
    a.pop(a.push(stream(1), 4096));
    ASSERT_EQ(harena_retire_stream(a.arena, stream(1)), HARENA_OK) << harena_last_error();
    ASSERT_EQ(log_.ops.size(), 1u);
    EXPECT_EQ(log_.ops[0].kind, 'r');
    EXPECT_EQ(log_.ops[0].stream, stream(1));
    const harena_frame f = a.push(stream(2), 4096);
    ASSERT_EQ(log_.ops.size(), 2u) << "the crossing waits on the retirement's event, recording nothing more";
    EXPECT_EQ(log_.ops[1].kind, 'w');
    EXPECT_EQ(log_.ops[1].stream, stream(2));
    EXPECT_EQ(log_.ops[1].event, log_.ops[0].event);
    a.pop(f);
}

TEST(StreamOrder, AStreamAPushedFrameUsesCannotRetire) {
    StreamArena a;
    const harena_frame f = a.push(stream(1));
    EXPECT_EQ(harena_retire_stream(a.arena, stream(1)), HARENA_ERROR_ARENA_IN_USE);
    EXPECT_TRUE(last_error_mentions({"harena_retire_stream", "frame #", "pop"}));
    a.pop(f);
}

TEST(StreamOrder, AHostArenaTakesNoStream) {
    harena_test::HostArena host(1 << 16);
    harena_frame f{};
    EXPECT_EQ(harena_push_on_stream(host.arena, 0, stream(1), &f), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_TRUE(last_error_mentions({"harena_push_on_stream", "host memory", "NULL"}));
    ASSERT_EQ(harena_push_on_stream(host.arena, 0, nullptr, &f), HARENA_OK);
    uint64_t x = 0;
    ASSERT_EQ(harena_alloc_on_stream(host.arena, 64, nullptr, nullptr, &x), HARENA_OK);
    EXPECT_EQ(harena_free_on_stream(host.arena, x, 64, nullptr), HARENA_OK);
    EXPECT_EQ(harena_pop(host.arena, f), HARENA_OK);
}

TEST(StreamOrder, ThreadsOnTwoStreamsShareAFrame) {
    StreamArena a;
    const harena_frame f = a.push(stream(1));
    auto work = [&](void *s) {
        for (int i = 0; i < 2000; i++) {
            const uint64_t x = a.alloc(s, 256 * (1 + i % 3));
            a.free(s, x, 256 * (1 + i % 3));
        }
    };
    std::thread t1(work, stream(1)), t2(work, stream(2));
    t1.join();
    t2.join();
    a.pop(f);
    const harena_stats s = a.stats();
    EXPECT_EQ(s.stream_waits, s.stream_crossings);
    EXPECT_EQ(s.stream_events_recorded, s.stream_crossings);
    std::lock_guard<std::mutex> lock(log_.mutex);
    for (size_t i = 0; i + 1 < log_.ops.size(); i += 2) {
        EXPECT_NE(log_.ops[i].stream, log_.ops[i + 1].stream) << "a stream never waits for itself";
    }
}

}  // namespace
