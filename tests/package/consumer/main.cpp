#include "HalideBuffer.h"
#include "blur_arena.arena.h"
#include "blur_arena.h"
#include "harena/runtime.h"

#include <cstdio>

int main() {
    harena_arena *arena = nullptr;
    if (harena_create(nullptr, nullptr, BLUR_ARENA_ARENA_BYTES, nullptr, &arena) != 0) {
        return 1;
    }
    Halide::Runtime::Buffer<float> in(64, 64), out(64, 64);
    in.fill(1.0f);
    int err = blur_arena(arena, in, out);
    std::printf("blur_arena: %d, out(10, 10) = %g, arena %llu bytes\n", err, out(10, 10),
                (unsigned long long)BLUR_ARENA_ARENA_BYTES);
    harena_destroy(arena);
    return err == 0 && out(10, 10) == 9.0f ? 0 : 1;
}
