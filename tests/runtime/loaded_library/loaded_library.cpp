// A shared library that holds the runtime, for loaded_library_test.cpp: the
// way a Python extension or a PyTorch operator library carries it into a
// process that loads it with dlopen after start-up.
#include <cstdint>

#include "harena/runtime.h"

// One arena's life on the calling thread: create, push, allocate, pop,
// destroy. 0, or the first error code.
extern "C" int harena_loaded_library_round(void) {
    harena_arena *arena = nullptr;
    if (int err = harena_create(nullptr, nullptr, 1 << 20, nullptr, &arena)) {
        return err;
    }
    harena_frame frame{};
    uint64_t address = 0;
    int err = harena_push(arena, 0, &frame);
    if (err == HARENA_OK) {
        err = harena_alloc(arena, 1000, "loaded", &address);
    }
    if (err == HARENA_OK) {
        err = harena_pop(arena, frame);
    }
    const int destroyed = harena_destroy(arena);
    return err != HARENA_OK ? err : destroyed;
}
