// The core without the checking feature: this program links the runtime's
// archive without the link option that brings in runtime/src/checking, so
// no checking hooks are installed (core/checking.h). The arena works;
// debug and guard mode are refused, naming the feature to link.
#include <gtest/gtest.h>

#include <string>

#include "harena/runtime.h"

namespace {

TEST(CoreWithoutChecking, AllocatesFreesPushesAndPops) {
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
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}

TEST(CoreWithoutChecking, DebugAndGuardModesAreRefusedByName) {
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

}  // namespace
