// The slot pools of planned parallel loops (harena/pipeline_abi.h): the
// words are the pipeline's, on its stack, so they are reached through
// GCC's __atomic builtins rather than std::atomic objects. Every access is
// atomic, because the threads that run a loop's tasks are Halide's and
// their hand-off of work is invisible to ThreadSanitizer.
#include "core/arena.h"
#include "core/errors.h"

using namespace harena::detail;

namespace {

// The pool's words from its first 64-byte boundary on (the pipeline's stack
// aligns them to 8 bytes only): word 0 holds the slot count and word 1 the
// tasks that found no free slot; slot i owns the cache line at word
// kLineWords * (i + 1): its state (0 free, 1 held), then the tasks that held
// it, which only its holder writes.
constexpr uint32_t kLineWords = 8;
constexpr uint32_t kSlotsWord = 0;
constexpr uint32_t kMissedWord = 1;

uint64_t *lines(const uint64_t *pool) {
    constexpr uintptr_t kLineBytes = kLineWords * sizeof(uint64_t);
    return reinterpret_cast<uint64_t *>((reinterpret_cast<uintptr_t>(pool) + kLineBytes - 1) & ~(kLineBytes - 1));
}
uint64_t *slot_line(const uint64_t *pool, uint32_t slot) {
    return lines(pool) + kLineWords * (slot + 1);
}

uint64_t load(const uint64_t *word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

void store(uint64_t *word, uint64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

// The slot the calling thread took last, of whichever pool: tried first, so
// that a thread keeps to one line while no other thread wants it.
thread_local uint32_t last_slot = 0;

}  // namespace

int harena_slot_pool_init(uint64_t *pool, int32_t slots) {
    // No slots (harena.parallel_slots=0): every task takes the fallback.
    const uint32_t count = slots > 0 ? static_cast<uint32_t>(slots) : 0;
    store(lines(pool) + kSlotsWord, count);
    store(lines(pool) + kMissedWord, 0);
    for (uint32_t i = 0; i < count; i++) {
        store(slot_line(pool, i), 0);
        store(slot_line(pool, i) + 1, 0);
    }
    return HARENA_OK;
}

int32_t harena_slot_take(uint64_t *pool) {
    const uint32_t slots = static_cast<uint32_t>(load(lines(pool) + kSlotsWord));
    const uint32_t first = last_slot < slots ? last_slot : 0;
    for (uint32_t k = 0; k < slots; k++) {
        const uint32_t slot = first + k < slots ? first + k : first + k - slots;
        uint64_t *line = slot_line(pool, slot);
        uint64_t free_state = 0;
        // Read before the exchange, so that a held slot's line is not
        // written by a thread passing over it.
        if (load(line) == 0 &&
            __atomic_compare_exchange_n(line, &free_state, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
            last_slot = slot;
            store(line + 1, load(line + 1) + 1);
            return static_cast<int32_t>(slot);
        }
    }
    __atomic_fetch_add(lines(pool) + kMissedWord, 1, __ATOMIC_RELAXED);
    return -1;
}

int harena_slot_give(uint64_t *pool, int32_t slot) {
    __atomic_store_n(slot_line(pool, static_cast<uint32_t>(slot)), 0, __ATOMIC_RELEASE);
    return HARENA_OK;
}

int harena_pipeline_slots(void *user_context, const uint64_t *pool) {
    if (int err = check_live(user_context, "harena_pipeline_slots", user_context)) {
        return err;
    }
    const uint32_t slots = static_cast<uint32_t>(load(lines(pool) + kSlotsWord));
    uint64_t taken = 0, used = 0;
    for (uint32_t i = 0; i < slots; i++) {
        const uint64_t tasks = load(slot_line(pool, i) + 1);
        taken += tasks;
        used += tasks > 0 ? 1 : 0;
    }
    static_cast<harena_arena *>(user_context)->stats.slots(taken, load(lines(pool) + kMissedWord), used);
    return HARENA_OK;
}
