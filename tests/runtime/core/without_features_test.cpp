// The core alone: this program links harena_core and none of the features'
// libraries, so no hooks are installed (core/checking.h, core/growth.h,
// core/companion.h, core/streams.h). The arena works and has no host
// companion; debug mode, guard mode and growing arenas are refused, naming
// the feature to link; a device arena runs on the stream of its first frame
// and refuses work on any other.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harena/runtime.h"
#include "host_arena.h"

namespace {

TEST(CoreWithoutFeatures, AllocatesFreesPushesAndPops) {
    harena_arena *arena = nullptr;
    ASSERT_EQ(harena_create(nullptr, nullptr, 1 << 16, nullptr, &arena), HARENA_OK);
    harena_frame frame;
    ASSERT_EQ(harena_push(arena, 0, &frame), HARENA_OK);
    uint64_t a = 0, b = 0;
    ASSERT_EQ(harena_alloc(arena, 100, "a", &a), HARENA_OK);
    ASSERT_EQ(harena_alloc(arena, 200, "b", &b), HARENA_OK);
    EXPECT_GT(b, a);
    EXPECT_EQ(harena_free(arena, b, 200), HARENA_OK);
    uint64_t c = 0;
    ASSERT_EQ(harena_alloc(arena, 200, "c", &c), HARENA_OK);
    EXPECT_EQ(c, b) << "the LIFO free gave its bytes back";
    EXPECT_EQ(harena_pop(arena, frame), HARENA_OK);
    harena_info info;
    ASSERT_EQ(harena_get_info(arena, &info), HARENA_OK);
    EXPECT_EQ(info.debug, 0);
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(arena, &stats), HARENA_OK);
    EXPECT_EQ(stats.guard_checks, 0u);
    EXPECT_EQ(stats.grows, 0u);
    harena_stats companion;
    ASSERT_EQ(harena_get_host_companion_stats(arena, &companion), HARENA_OK);
    EXPECT_EQ(companion.capacity, 0u);
    char text[1024];
    ASSERT_GT(harena_format_stats(arena, text, sizeof text), 0);
    EXPECT_EQ(std::string(text).find("host companion"), std::string::npos) << text;
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(CoreWithoutFeatures, DebugAndGuardModesAreRefusedByName) {
    for (const char *mode : {"debug", "guard"}) {
        harena_options options;
        harena_options_init(&options);
        (std::string(mode) == "debug" ? options.debug : options.guard) = 1;
        harena_arena *arena = nullptr;
        EXPECT_EQ(harena_create(nullptr, nullptr, 1 << 16, &options, &arena), HARENA_ERROR_INVALID_ARGUMENT) << mode;
        EXPECT_EQ(arena, nullptr);
        const std::string message = harena_last_error();
        EXPECT_NE(message.find(std::string(mode) + " mode needs the checking feature"), std::string::npos) << message;
        EXPECT_NE(message.find("HalideArena::runtime"), std::string::npos) << message;
    }
}

TEST(CoreWithoutFeatures, GrowingArenasAreRefusedByName) {
    harena_options options;
    harena_options_init(&options);
    options.grow = 1;
    harena_arena *arena = nullptr;
    EXPECT_EQ(harena_create(nullptr, nullptr, 1 << 16, &options, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    const std::string message = harena_last_error();
    EXPECT_NE(message.find("a growing arena needs the growth feature"), std::string::npos) << message;
    EXPECT_NE(message.find("HalideArena::growth"), std::string::npos) << message;
}

void *stream(int i) {
    return reinterpret_cast<void *>(uintptr_t(0x1000 * i));
}

// A device arena over host memory (the runtime never touches its bytes).
struct DeviceArena {
    DeviceArena() {
        EXPECT_EQ(harena_create_from_memory(harena_test::dummy_interface(), reinterpret_cast<uint64_t>(memory.data()),
                                            memory.size(), nullptr, &arena),
                  HARENA_OK)
            << harena_last_error();
    }
    ~DeviceArena() {
        EXPECT_EQ(harena_destroy(arena), HARENA_OK) << harena_last_error();
    }
    std::vector<char> memory = std::vector<char>(1 << 16);
    harena_arena *arena = nullptr;
};

TEST(CoreWithoutFeatures, ADeviceArenaRunsOnTheStreamOfItsFirstFrame) {
    DeviceArena d;
    for (int call = 0; call < 3; call++) {
        harena_frame frame;
        ASSERT_EQ(harena_push_on_stream(d.arena, 256, stream(1), &frame), HARENA_OK) << harena_last_error();
        uint64_t a = 0;
        ASSERT_EQ(harena_alloc_on_stream(d.arena, 100, "a", stream(1), &a), HARENA_OK) << harena_last_error();
        EXPECT_EQ(harena_free_on_stream(d.arena, a, 100, stream(1)), HARENA_OK) << harena_last_error();
        EXPECT_EQ(harena_pop(d.arena, frame), HARENA_OK);
    }
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(d.arena, &stats), HARENA_OK);
    EXPECT_EQ(stats.stream_crossings, 0u);
    EXPECT_EQ(stats.stream_events_recorded, 0u);
    EXPECT_EQ(harena_retire_stream(d.arena, stream(1)), HARENA_OK) << harena_last_error();
}

TEST(CoreWithoutFeatures, WorkOnAnotherStreamIsRefusedNamingTheFeature) {
    DeviceArena d;
    harena_frame first;
    ASSERT_EQ(harena_push_on_stream(d.arena, 0, stream(1), &first), HARENA_OK) << harena_last_error();
    uint64_t a = 0;
    ASSERT_EQ(harena_alloc_on_stream(d.arena, 100, "a", stream(1), &a), HARENA_OK);
    uint64_t b = 0;
    EXPECT_EQ(harena_alloc_on_stream(d.arena, 100, "b", stream(2), &b), HARENA_ERROR_INVALID_ARGUMENT);
    std::string message = harena_last_error();
    EXPECT_NE(message.find("HalideArena::streams"), std::string::npos) << message;
    EXPECT_EQ(harena_free_on_stream(d.arena, a, 100, stream(2)), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(harena_retire_stream(d.arena, stream(1)), HARENA_ERROR_ARENA_IN_USE) << "its frame runs on it";
    // The refused free lost nothing: the allocation is still there to free.
    EXPECT_EQ(harena_free_on_stream(d.arena, a, 100, stream(1)), HARENA_OK) << harena_last_error();
    EXPECT_EQ(harena_pop(d.arena, first), HARENA_OK);
    harena_frame second;
    EXPECT_EQ(harena_push_on_stream(d.arena, 0, stream(2), &second), HARENA_ERROR_INVALID_ARGUMENT);
    message = harena_last_error();
    EXPECT_NE(message.find("runs on stream"), std::string::npos) << message;
    harena_stats stats;
    ASSERT_EQ(harena_get_stats(d.arena, &stats), HARENA_OK);
    EXPECT_EQ(stats.frame_depth, 0u) << "the refused push pushed nothing";
}

}  // namespace
