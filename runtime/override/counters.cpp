#include "counters.h"

#include <atomic>
#include <cstdint>
#include <mutex>

#include "harena/override.h"

namespace harena::override_detail {

namespace {

constexpr int kEvents = static_cast<int>(Event::heap_default_allocation) + 1;

enum class Listing : uint8_t {
    not_yet,  // the thread has not counted yet
    listed,   // in the tally's live list, from the first count
    gone,     // folded into the exited totals at the thread's exit
};

// One thread's counts, on a line of its own so that threads counting at once
// do not share it. Atomic only so that readers on other threads may load them.
struct alignas(64) Block {
    std::atomic<uint64_t> counts[kEvents] = {};
    Block *next = nullptr;
    Listing listing = Listing::not_yet;
};
static_assert(sizeof(Block) == 64, "a thread's counts fill one cache line");

// Leaked on purpose: threads may count while static objects are destroyed.
struct Tally {
    std::mutex mutex;
    Block *live = nullptr;            // blocks of threads that counted and have not exited
    uint64_t exited[kEvents] = {};    // what exited threads counted
    uint64_t baseline[kEvents] = {};  // the totals at the last reset
};

Tally &tally() {
    static Tally *t = new Tally;
    return *t;
}

// The thread's own block: constant-initialised and trivially destructible, so
// counting reads and writes only this line, with no guard or indirection.
thread_local Block own;

// Folds the thread's block into the exited totals when the thread ends.
// Constructed when the thread counts for the first time.
struct Owner {
    ~Owner() {
        Tally &t = tally();
        std::lock_guard<std::mutex> lock(t.mutex);
        for (int e = 0; e < kEvents; e++) {
            t.exited[e] += own.counts[e].load(std::memory_order_relaxed);
        }
        for (Block **p = &t.live; *p != nullptr; p = &(*p)->next) {
            if (*p == &own) {
                *p = own.next;
                break;
            }
        }
        own.listing = Listing::gone;
    }
};

// The totals since the process started, under the tally's mutex.
void totals(const Tally &t, uint64_t out[kEvents]) {
    for (int e = 0; e < kEvents; e++) {
        out[e] = t.exited[e];
    }
    for (const Block *b = t.live; b != nullptr; b = b->next) {
        for (int e = 0; e < kEvents; e++) {
            out[e] += b->counts[e].load(std::memory_order_relaxed);
        }
    }
}

[[gnu::noinline]] void count_first(Event event) {
    Tally &t = tally();
    std::lock_guard<std::mutex> lock(t.mutex);
    // Counting from a thread-exit destructor that ran after the owner's: into
    // the shared totals, under the lock.
    if (own.listing == Listing::gone) {
        t.exited[static_cast<int>(event)]++;
        return;
    }
    static thread_local Owner owner;  // registers the fold at thread exit
    (void)owner;
    own.counts[static_cast<int>(event)].store(1, std::memory_order_relaxed);
    own.next = t.live;
    t.live = &own;
    own.listing = Listing::listed;
}

}  // namespace

void count(Event event) {
    if (own.listing != Listing::listed) {
        count_first(event);
        return;
    }
    std::atomic<uint64_t> &c = own.counts[static_cast<int>(event)];
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

}  // namespace harena::override_detail

using namespace harena::override_detail;

extern "C" {

void harena_override_get_counters(harena_override_counters *out) {
    if (out == nullptr) {
        return;
    }
    Tally &t = tally();
    uint64_t now[kEvents];
    {
        std::lock_guard<std::mutex> lock(t.mutex);
        totals(t, now);
        for (int e = 0; e < kEvents; e++) {
            now[e] -= t.baseline[e];
        }
    }
    out->device_arena_allocations = now[static_cast<int>(Event::device_arena_allocation)];
    out->device_arena_frees = now[static_cast<int>(Event::device_arena_free)];
    out->device_default_allocations = now[static_cast<int>(Event::device_default_allocation)];
    out->device_default_frees = now[static_cast<int>(Event::device_default_free)];
    out->heap_arena_allocations = now[static_cast<int>(Event::heap_arena_allocation)];
    out->heap_default_allocations = now[static_cast<int>(Event::heap_default_allocation)];
}

void harena_override_reset_counters(void) {
    Tally &t = tally();
    std::lock_guard<std::mutex> lock(t.mutex);
    totals(t, t.baseline);
}

}  // extern "C"
