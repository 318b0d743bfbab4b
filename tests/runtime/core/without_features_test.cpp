// The core without the features that attach through hook tables: this
// program links the runtime's archive without the link options that bring
// in runtime/src/checking, runtime/src/growth and runtime/src/companion, so
// no hooks are installed (core/checking.h, core/growth.h,
// core/companion.h). The arena works and has no host companion; debug mode,
// guard mode, growing and measuring arenas are refused, naming the feature
// to link.
#include <gtest/gtest.h>

#include <string>

#include "harena/runtime.h"

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

TEST(CoreWithoutFeatures, GrowingAndMeasuringArenasAreRefusedByName) {
    harena_options options;
    harena_options_init(&options);
    options.grow = 1;
    harena_arena *arena = nullptr;
    EXPECT_EQ(harena_create(nullptr, nullptr, 1 << 16, &options, &arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    std::string message = harena_last_error();
    EXPECT_NE(message.find("a growing arena needs the growth feature"), std::string::npos) << message;
    EXPECT_EQ(harena_create_measuring(&arena), HARENA_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(arena, nullptr);
    message = harena_last_error();
    EXPECT_NE(message.find("measuring arenas need the growth feature"), std::string::npos) << message;
}

}  // namespace
