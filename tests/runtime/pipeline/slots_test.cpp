#include <atomic>
#include <thread>
#include <vector>

#include "harena/pipeline_abi.h"
#include "host_arena.h"

using harena_test::HostArena;
using harena_test::last_error_mentions;

namespace {

// A pool as the pipeline holds it: words on its stack, 8-byte aligned only,
// so the runtime's own alignment is exercised at every offset in a line.
class Pool {
public:
    Pool(int32_t slots, int skew_words = 1)
        : words_(HARENA_SLOT_POOL_WORDS(slots) + skew_words, ~0ull) {
        pool = words_.data() + skew_words;
        EXPECT_EQ(harena_slot_pool_init(pool, slots), HARENA_OK);
    }
    uint64_t *pool = nullptr;

private:
    std::vector<uint64_t> words_;
};

}  // namespace

TEST(PipelineSlots, EverySlotIsTakenOnceThenTheTakeFindsNone) {
    for (int skew = 0; skew < 8; skew++) {
        Pool p(4, skew);
        std::vector<bool> held(4, false);
        for (int i = 0; i < 4; i++) {
            const int32_t slot = harena_slot_take(p.pool);
            ASSERT_GE(slot, 0);
            ASSERT_LT(slot, 4);
            EXPECT_FALSE(held[slot]) << "slot " << slot << " taken twice, skew " << skew;
            held[slot] = true;
        }
        EXPECT_EQ(harena_slot_take(p.pool), -1);
        EXPECT_EQ(harena_slot_give(p.pool, 2), HARENA_OK);
        EXPECT_EQ(harena_slot_take(p.pool), 2);
    }
}

TEST(PipelineSlots, APoolOfNoSlotsSendsEveryTaskToTheFallback) {
    for (int32_t slots : {0, -3}) {
        Pool p(slots < 0 ? 0 : slots);
        ASSERT_EQ(harena_slot_pool_init(p.pool, slots), HARENA_OK);
        EXPECT_EQ(harena_slot_take(p.pool), -1) << slots << " slots";
    }
}

TEST(PipelineSlots, AThreadTakesTheSlotItGaveBackLast) {
    Pool p(8);
    const int32_t first = harena_slot_take(p.pool);
    const int32_t second = harena_slot_take(p.pool);
    ASSERT_NE(first, second);
    ASSERT_EQ(harena_slot_give(p.pool, second), HARENA_OK);
    EXPECT_EQ(harena_slot_take(p.pool), second);
}

TEST(PipelineSlots, TheRunsCountsReachTheStats) {
    HostArena a(1 << 20);
    Pool p(4);
    // Three tasks in turn on one thread use one slot; two more held at once
    // use a second; a task with every slot held falls back.
    for (int task = 0; task < 3; task++) {
        const int32_t slot = harena_slot_take(p.pool);
        ASSERT_GE(slot, 0);
        harena_slot_give(p.pool, slot);
    }
    std::vector<int32_t> held;
    for (int i = 0; i < 4; i++) {
        held.push_back(harena_slot_take(p.pool));
    }
    EXPECT_EQ(harena_slot_take(p.pool), -1);
    ASSERT_EQ(harena_pipeline_slots(a.arena, p.pool), HARENA_OK);
    const harena_stats s = a.stats();
    EXPECT_EQ(s.slot_tasks, 7u);
    EXPECT_EQ(s.slot_fallbacks, 1u);
    EXPECT_EQ(s.slot_high_water, 4u);
    // A later run with fewer slots in use leaves the high water where it is
    // and adds its tasks.
    Pool q(4);
    harena_slot_give(q.pool, harena_slot_take(q.pool));
    ASSERT_EQ(harena_pipeline_slots(a.arena, q.pool), HARENA_OK);
    EXPECT_EQ(a.stats().slot_tasks, 8u);
    EXPECT_EQ(a.stats().slot_high_water, 4u);
}

TEST(PipelineSlots, CountingIntoAPointerThatIsNotAnArenaIsRefused) {
    Pool p(2);
    int not_an_arena = 0;
    EXPECT_NE(harena_pipeline_slots(&not_an_arena, p.pool), HARENA_OK);
    EXPECT_TRUE(last_error_mentions({"harena_pipeline_slots"}));
}

TEST(PipelineSlots, ConcurrentTasksNeverHoldOneSlotTogether) {
    // More threads than slots, so that takes fail as well as succeed.
    constexpr int kThreads = 8, kSlots = 4, kTasks = 20000;
    HostArena a(1 << 20);
    Pool p(kSlots);
    std::vector<std::atomic<int>> holders(kSlots);
    std::atomic<uint64_t> ran_in_slot{0}, fell_back{0}, overlaps{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&] {
            for (int i = 0; i < kTasks; i++) {
                const int32_t slot = harena_slot_take(p.pool);
                if (slot < 0) {
                    fell_back++;
                    continue;
                }
                if (holders[slot].fetch_add(1) != 0) {
                    overlaps++;
                }
                holders[slot].fetch_sub(1);
                harena_slot_give(p.pool, slot);
                ran_in_slot++;
            }
        });
    }
    for (std::thread &t : threads) {
        t.join();
    }
    EXPECT_EQ(overlaps.load(), 0u);
    ASSERT_EQ(harena_pipeline_slots(a.arena, p.pool), HARENA_OK);
    const harena_stats s = a.stats();
    EXPECT_EQ(s.slot_tasks, ran_in_slot.load());
    EXPECT_EQ(s.slot_fallbacks, fell_back.load());
    EXPECT_EQ(s.slot_tasks + s.slot_fallbacks, uint64_t{kThreads} * kTasks);
    EXPECT_LE(s.slot_high_water, uint64_t{kSlots});
}
