#include <cstring>

#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

TEST(Alloc, EveryAllocationIsAlignedTo256ByDefault) {
    HostArena a(1 << 20);
    harena_frame f = a.push();
    EXPECT_EQ(a.base() % 256, 0u);
    for (uint64_t bytes : {1, 7, 255, 256, 257, 1000, 4096, 3}) {
        EXPECT_EQ(a.alloc(bytes) % 256, 0u) << bytes;
    }
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

// A host arena of a huge page or more starts on a huge page, so that the
// kernel can back it with transparent huge pages; its capacity is still
// exactly what was asked for, all of it usable.
TEST(Alloc, LargeHostArenaStartsOnAHugePage) {
    constexpr uint64_t kHugePage = uint64_t(2) << 20;
    const uint64_t capacity = 2 * kHugePage + 1024;  // not a whole number of huge pages
    HostArena a(capacity);
    harena_info info{};
    ASSERT_EQ(harena_get_info(a.arena, &info), HARENA_OK);
    EXPECT_EQ(info.base % kHugePage, 0u);
    EXPECT_EQ(info.capacity, capacity);
    harena_frame f = a.push();
    // The whole capacity in one allocation, every byte written (a block
    // shorter than the capacity fails here under ./run sanitize's ASan).
    std::memset(reinterpret_cast<void *>(a.alloc(capacity)), 0x5a, capacity);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, AlignmentIsConfigurable) {
    for (uint64_t alignment : {1u, 8u, 64u, 4096u}) {
        harena_options o = HostArena::defaults();
        o.alignment = alignment;
        HostArena a(1 << 20, o);
        harena_frame f = a.push();
        uint64_t previous = 0;
        for (uint64_t bytes : {1, 100, 3, 5000}) {
            const uint64_t p = a.alloc(bytes);
            EXPECT_EQ(p % alignment, 0u);
            if (previous != 0) {
                EXPECT_GE(p, previous);
            }
            previous = p + bytes;
        }
        EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    }
}

TEST(Alloc, ZeroBytesStillGetsADistinctAddress) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(0);
    const uint64_t q = a.alloc(0);
    EXPECT_NE(p, q);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, MemoryIsUsable) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    auto *p = reinterpret_cast<char *>(a.alloc(1000));
    auto *q = reinterpret_cast<char *>(a.alloc(1000));
    std::memset(p, 1, 1000);
    std::memset(q, 2, 1000);
    EXPECT_EQ(p[999], 1);
    EXPECT_EQ(q[0], 2);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, FreeOfTheMostRecentAllocationGivesItsBytesBack) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(100);
    const uint64_t q = a.alloc(700);
    EXPECT_EQ(harena_free(a.arena, q, 700), HARENA_OK);
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
    EXPECT_EQ(a.stats().reclaimed, 2u);
    EXPECT_EQ(a.alloc(50), p);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, OtherFreesWaitForThePop) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    const uint64_t p = a.alloc(100);
    const uint64_t q = a.alloc(100);
    const uint64_t in_use = a.stats().bytes_in_use;
    EXPECT_EQ(harena_free(a.arena, p, 100), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, in_use);
    // q is now the top: freeing it reclaims q only; p's bytes stay until the pop.
    EXPECT_EQ(harena_free(a.arena, q, 100), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, q - a.base());
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
}

TEST(Alloc, FreeNeverReachesBelowTheTopFrame) {
    HostArena a(1 << 16);
    harena_frame outer = a.push();
    const uint64_t p = a.alloc(256);
    harena_frame inner = a.push();
    // p ends exactly where the inner frame begins; giving it back now would
    // let the inner frame's next allocation overlap p's frame.
    EXPECT_EQ(harena_free(a.arena, p, 256), HARENA_OK);
    EXPECT_EQ(a.alloc(256), p + 256);
    EXPECT_EQ(harena_pop(a.arena, inner), HARENA_OK);
    // After the pop it is the outer frame's most recent allocation again.
    EXPECT_EQ(harena_free(a.arena, p, 256), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 0u);
    EXPECT_EQ(harena_pop(a.arena, outer), HARENA_OK);
}

TEST(Alloc, FreeNeverReachesIntoAReservation) {
    HostArena a(1 << 16);
    harena_frame f = a.push(512);
    EXPECT_EQ(harena_free(a.arena, f.base + 256, 256), HARENA_OK);
    EXPECT_EQ(a.stats().bytes_in_use, 512u);
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, FreeOfAForeignAddressIsAnError) {
    HostArena a(1 << 16);
    harena_frame f = a.push();
    int local = 0;
    EXPECT_EQ(harena_free(a.arena, reinterpret_cast<uint64_t>(&local), 4), HARENA_ERROR_NOT_IN_ARENA);
    EXPECT_TRUE(last_error_mentions({"is not in arena"}));
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(Alloc, WrappedMemoryIsNeverAllocatedOrFreedByTheArena) {
    alignas(256) static unsigned char block[8192 + 100];
    harena_arena *arena = nullptr;
    // An unaligned start: the base moves up to the next 256 bytes.
    const auto address = reinterpret_cast<uint64_t>(block) + 100;
    ASSERT_EQ(harena_create_from_memory(nullptr, address, 8192, nullptr, &arena), HARENA_OK);
    harena_info info{};
    ASSERT_EQ(harena_get_info(arena, &info), HARENA_OK);
    EXPECT_EQ(info.base, reinterpret_cast<uint64_t>(block) + 256);
    EXPECT_EQ(info.capacity, 8192u - 256);
    EXPECT_EQ(info.owns_memory, 0);
    harena_frame f{};
    ASSERT_EQ(harena_push(arena, 0, &f), HARENA_OK);
    uint64_t p = 0;
    ASSERT_EQ(harena_alloc(arena, 100, nullptr, &p), HARENA_OK);
    EXPECT_EQ(p, info.base);
    ASSERT_EQ(harena_pop(arena, f), HARENA_OK);
    EXPECT_EQ(harena_destroy(arena), HARENA_OK);
}
