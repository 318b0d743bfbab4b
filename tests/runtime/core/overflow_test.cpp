#include <string>

#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(Overflow, ErrorPolicyReportsRequestLeftCapacityAndName) {
    HostArena a(8192);
    harena_frame f = a.push();
    a.alloc(5000);
    uint64_t address = 12345;
    EXPECT_EQ(harena_alloc(a.arena, 4000, "conv1.weights", &address), HARENA_ERROR_OVERFLOW);
    EXPECT_EQ(address, 12345u);
    EXPECT_TRUE(last_error_mentions(
        {"cannot allocate 4000 bytes", "'conv1.weights'", "3072 bytes (3.00 KiB) left", "of 8192 bytes"}));
    EXPECT_TRUE(last_error_mentions({"at least 9216 bytes"}));
    const harena_stats s = a.stats();
    EXPECT_EQ(s.overflows, 1u);
    EXPECT_EQ(s.fallbacks, 0u);
    EXPECT_EQ(s.bytes_in_use, 5120u);
    // What is left is still usable.
    EXPECT_NE(a.alloc(3000), 0u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Overflow, HugeRequestsDoNotWrapAround) {
    HostArena a(8192);
    harena_frame f = a.push();
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, UINT64_MAX - 10, nullptr, &address), HARENA_ERROR_OVERFLOW);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Overflow, FallbackPolicyHandsTheRequestBackWithoutAnError) {
    harena_options o = HostArena::defaults();
    o.overflow_policy = HARENA_OVERFLOW_FALLBACK;
    HostArena a(4096, o);
    harena_frame f = a.push();
    a.alloc(4000);
    const std::string error_before = harena_last_error();
    testing::internal::CaptureStderr();
    uint64_t address = 0;
    EXPECT_EQ(harena_alloc(a.arena, 100, "first", &address), HARENA_ERROR_OVERFLOW);
    EXPECT_EQ(harena_alloc(a.arena, 100, "second", &address), HARENA_ERROR_OVERFLOW);
    const std::string notices = testing::internal::GetCapturedStderr();
    // Noticed once, naming the first request; not reported as an error.
    EXPECT_NE(notices.find("'first'"), std::string::npos) << notices;
    EXPECT_EQ(notices.find("'second'"), std::string::npos) << notices;
    EXPECT_EQ(harena_last_error(), error_before);
    const harena_stats s = a.stats();
    EXPECT_EQ(s.overflows, 2u);
    EXPECT_EQ(s.fallbacks, 2u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}
