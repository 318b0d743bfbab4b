// Host memory for CPU pipelines and for tests: one aligned block.
#include <algorithm>
#include <cstdlib>

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

int host_acquire(harena_arena &arena, uint64_t capacity) {
    // aligned_alloc wants a size that is a multiple of the alignment; small
    // alignments are raised to a cache line, which capacity may not be a
    // multiple of.
    const uint64_t alignment = std::max<uint64_t>(arena.alignment, 64);
    void *block = std::aligned_alloc(alignment, round_up(capacity, alignment));
    if (block == nullptr) {
        return report_error(arena.user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "harena: cannot allocate %s of host memory for the arena",
                            bytes_text(capacity).text);
    }
    void *old = arena.host_block;
    arena.backing = Backing::host;
    arena.host_block = block;
    relocate(arena, reinterpret_cast<uint64_t>(block), capacity);
    std::free(old);
    return HARENA_OK;
}

void host_release(harena_arena &arena) {
    std::free(arena.host_block);
    arena.host_block = nullptr;
}

}  // namespace harena::detail
