// No exception leaves a C entry point: where the runtime's own host
// allocations (messages, records, guard bands) fail, the call returns
// HARENA_ERROR_OUT_OF_MEMORY. This program replaces the global operator new
// so that a test can make every allocation on its thread fail; it is a
// program of its own so that no other test runs under the replacement.
#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "host_arena.h"

namespace {

thread_local bool host_memory_exhausted = false;

void *allocate(std::size_t bytes) {
    void *p = host_memory_exhausted ? nullptr : std::malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}

// Host memory runs out on this thread while it lives.
struct NoHostMemory {
    NoHostMemory() {
        host_memory_exhausted = true;
    }
    ~NoHostMemory() {
        host_memory_exhausted = false;
    }
};

}  // namespace

void *operator new(std::size_t bytes) {
    return allocate(bytes);
}
void *operator new[](std::size_t bytes) {
    return allocate(bytes);
}
void *operator new(std::size_t bytes, const std::nothrow_t &) noexcept {
    return host_memory_exhausted ? nullptr : std::malloc(bytes == 0 ? 1 : bytes);
}
void *operator new[](std::size_t bytes, const std::nothrow_t &) noexcept {
    return host_memory_exhausted ? nullptr : std::malloc(bytes == 0 ? 1 : bytes);
}
void operator delete(void *p) noexcept {
    std::free(p);
}
void operator delete[](void *p) noexcept {
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void *p, std::size_t) noexcept {
    std::free(p);
}

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

harena_options guard_and_debug() {
    harena_options o = HostArena::defaults();
    o.guard = 1;
    o.guard_bytes = 256;
    o.debug = 1;
    return o;
}

TEST(OutOfMemory, TheInjectionMakesAllocationsFail) {
    // The premise of the tests below.
    NoHostMemory none;
    bool threw = false;
    try {
        std::string text(1000, 'x');
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    host_memory_exhausted = false;
    EXPECT_TRUE(threw);
}

TEST(OutOfMemory, AnOverflowOfANamedAllocationReturnsACode) {
    HostArena a(4096);
    harena_frame f = a.push();
    uint64_t address = 0;
    int rc;
    {
        NoHostMemory none;
        rc = harena_alloc(a.arena, 1 << 20, "a name too long for a short string", &address);
    }
    EXPECT_EQ(rc, HARENA_ERROR_OUT_OF_MEMORY);
    EXPECT_TRUE(last_error_mentions({"harena_alloc", "out of host memory"}));
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK);
}

TEST(OutOfMemory, AGuardAndDebugArenaRefusesWithACodeAndStaysUsable) {
    HostArena a(1 << 16, guard_and_debug());
    int push, alloc, bad_free, stats;
    harena_frame f{};
    uint64_t address = 0;
    char text[1024];
    {
        NoHostMemory none;
        // The frame is pushed; its band, which needs a name, is reported.
        push = harena_push(a.arena, 0, &f);
        // Bumped, then refused: the record needs host memory.
        alloc = harena_alloc(a.arena, 100, "buffer", &address);
        // Refused: the message saying why needs host memory.
        bad_free = harena_free(a.arena, address + 256, 100);
        stats = harena_format_stats(a.arena, text, sizeof(text));
    }
    EXPECT_EQ(push, HARENA_OK);
    EXPECT_EQ(alloc, HARENA_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(address, 0u);
    EXPECT_EQ(bad_free, HARENA_ERROR_OUT_OF_MEMORY);
    EXPECT_GT(stats, 0);
    EXPECT_NE(std::string(text).find("guard bands"), std::string::npos);
    // With host memory back, the arena works as before.
    const uint64_t ok = a.alloc(100, "buffer");
    EXPECT_EQ(harena_free(a.arena, ok, 100), HARENA_OK) << harena_last_error();
    EXPECT_EQ(harena_pop(a.arena, f), HARENA_OK) << harena_last_error();
}

}  // namespace
