// Host memory for CPU pipelines and for tests: one aligned block. A block of
// a huge page or more starts on a huge page and asks the kernel to back it
// with transparent huge pages (granted where
// /sys/kernel/mm/transparent_hugepage/enabled is "madvise" or "always"): the
// arena lives for many calls, one 2 MiB page takes the TLB entry that 512
// small ones would, and a malloc per buffer does not ask for them.
#include <algorithm>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/arena.h"
#include "core/errors.h"

namespace harena::detail {

namespace {

constexpr uint64_t kHugePageBytes = uint64_t(2) << 20;

}  // namespace

int host_acquire(harena_arena &arena, uint64_t capacity) {
    // At least a cache line, and a huge page where one fits; posix_memalign
    // takes any size, so the block is no larger than the capacity.
    const bool huge = capacity >= kHugePageBytes;
    const uint64_t alignment = std::max<uint64_t>(arena.alignment, huge ? kHugePageBytes : 64);
    void *block = nullptr;
    if (posix_memalign(&block, alignment, capacity) != 0) {
        return report_error(arena.user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "harena: cannot allocate %s of host memory for the arena",
                            bytes_text(capacity).text);
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge) {
        // Only the whole huge pages inside the capacity: the tail keeps small
        // pages, so that what is resident never passes the capacity by more
        // than a small page. Advice only: where the kernel declines, small
        // pages serve.
        (void)madvise(block, capacity / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);
    }
#endif
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
