// Threads started inside a scope attach to its arena and allocate device
// buffers through the override at once: none may hang, every buffer comes
// from the arena while it has room, and no two live buffers share bytes.
// HARENA_STRESS_CYCLES sets the cycles per thread (the short default keeps
// the ordinary suite quick; ./run tsan runs 20000), HARENA_STRESS_TIMEOUT_S
// the watchdog.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <thread>
#include <vector>

#include "override_fixture.h"

namespace harena_test {
namespace {

int from_environment(const char *name, int fallback) {
    const char *value = std::getenv(name);
    return value != nullptr && std::atoi(value) > 0 ? std::atoi(value) : fallback;
}

constexpr int kThreads = 8;
constexpr int kBuffersPerCycle = 3;

// A value no other buffer of any thread or cycle holds at that index.
uint32_t pattern(int thread, int cycle, int buffer, int index) {
    return (uint32_t(thread) << 28) ^ (uint32_t(cycle) << 8) ^ (uint32_t(buffer) << 6) ^ uint32_t(index);
}

void write(const halide_buffer_t &buf, int thread, int cycle, int buffer) {
    auto *data = reinterpret_cast<uint32_t *>(buf.device);
    for (int i = 0; i < buf.dim[0].extent; i++) {
        data[i] = pattern(thread, cycle, buffer, i);
    }
}

bool intact(const halide_buffer_t &buf, int thread, int cycle, int buffer) {
    const auto *data = reinterpret_cast<const uint32_t *>(buf.device);
    for (int i = 0; i < buf.dim[0].extent; i++) {
        if (data[i] != pattern(thread, cycle, buffer, i)) {
            return false;
        }
    }
    return true;
}

struct Outcome {
    std::atomic<int> failed_calls{0};
    std::atomic<int> damaged{0};
    std::atomic<int> outside{0};
    std::atomic<int> attached{0};
};

// One thread's life: attach, then per cycle three intermediates allocated and
// freed in the order Halide frees a chain's (each after the next is made),
// each checked bit for bit before its free.
void attached_worker(harena_arena *arena, int thread, int cycles, Outcome &out) {
    harena_scope scope;
    if (harena_scope_attach(&scope, arena) != HARENA_OK) {
        out.failed_calls++;
    }
    // All threads start their cycles together.
    out.attached++;
    while (out.attached.load() < kThreads) {
        std::this_thread::yield();
    }
    harena_info info{};
    (void)harena_get_info(arena, &info);
    const halide_device_interface_t *iface = fake_device_interface();
    for (int c = 0; c < cycles; c++) {
        Buf b[kBuffersPerCycle] = {Buf(16 + thread), Buf(32), Buf(48 - thread)};
        const auto make = [&](int i) {
            out.failed_calls += halide_device_malloc(nullptr, &b[i].buf, iface) != 0;
            if (b[i].buf.device < info.base || b[i].buf.device >= info.base + info.capacity) {
                out.outside++;
            }
            write(b[i].buf, thread, c, i);
            // Hands the core to another thread while this one holds slices,
            // so that threads interleave even on few cores.
            std::this_thread::yield();
        };
        const auto release = [&](int i) {
            out.damaged += !intact(b[i].buf, thread, c, i);
            out.failed_calls += halide_device_free(nullptr, &b[i].buf) != 0;
        };
        make(0);
        make(1);
        out.damaged += !intact(b[0].buf, thread, c, 0);
        release(0);
        make(2);
        release(1);
        release(2);
    }
    out.failed_calls += harena_scope_end(&scope) != HARENA_OK;
}

TEST_F(Override, ThreadsAttachedToOneScopeShareItsFrameWithoutHangOrFallback) {
    const int cycles = from_environment("HARENA_STRESS_CYCLES", 400);
    const int timeout_s = from_environment("HARENA_STRESS_TIMEOUT_S", 120);
    // Frees interleaved across threads give bytes back only when they are
    // the newest allocation, so the frame may keep every slice until it pops:
    // the arena holds them all, and any fallback is a defect.
    const uint64_t slice = 256;
    harena::Options options;
    options.overflow = harena::OverflowPolicy::fallback;
    harena::Arena arena = device_arena(uint64_t(kThreads) * cycles * kBuffersPerCycle * slice, options);
    harena::Scope scope(arena);

    Outcome out;
    std::promise<void> finished;
    std::thread runner([&] {
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; t++) {
            threads.emplace_back(attached_worker, arena.get(), t, cycles, std::ref(out));
        }
        for (auto &t : threads) {
            t.join();
        }
        finished.set_value();
    });
    if (finished.get_future().wait_for(std::chrono::seconds(timeout_s)) != std::future_status::ready) {
        std::fprintf(stderr, "threads attached to one scope did not finish %d cycles in %d s: a hang\n", cycles,
                     timeout_s);
        std::_Exit(1);  // the hung threads cannot be joined
    }
    runner.join();

    EXPECT_EQ(out.failed_calls.load(), 0) << harena_last_error();
    EXPECT_EQ(out.damaged.load(), 0);
    EXPECT_EQ(out.outside.load(), 0);
    const harena_stats s = arena.stats();
    EXPECT_EQ(s.fallbacks, 0u);
    EXPECT_EQ(s.overflows, 0u);
    const harena_override_counters c = counters();
    EXPECT_EQ(c.device_default_allocations, 0u);
    EXPECT_EQ(c.device_arena_allocations, uint64_t(kThreads) * cycles * kBuffersPerCycle);
    EXPECT_EQ(c.device_arena_frees, uint64_t(kThreads) * cycles * kBuffersPerCycle);
    EXPECT_EQ(fake_driver().foreign_frees.load(), 0);
    EXPECT_EQ(fake_driver().wraps.load(), fake_driver().detaches.load());
}

}  // namespace
}  // namespace harena_test
