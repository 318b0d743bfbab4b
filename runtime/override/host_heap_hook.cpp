// halide_malloc / halide_free of host pipelines into the active host arena,
// installed through Halide's own custom allocator hooks.
#include <mutex>

#include "core/arena.h"
#include "counters.h"
#include "harena/override.h"
#include "harena/runtime.h"

using namespace harena::override_detail;

namespace {

// Halide's largest halide_malloc_alignment(); generated code relies on it.
constexpr uint64_t kHalideMallocAlignment = 128;

halide_malloc_t previous_malloc = nullptr;
halide_free_t previous_free = nullptr;

// halide_free passes no size, so each block is preceded by one alignment unit
// whose last 8 bytes hold the requested size. The arena is the thread's
// active one (malloc) or the one harena_find says holds the block (free), so
// it is live and the public entry points' checks would only repeat that.
void *arena_malloc(void *user_context, size_t size) {
    harena_arena *arena = harena_active_arena(nullptr);
    if (arena != nullptr && arena->alignment >= kHalideMallocAlignment) {
        const uint64_t header = arena->alignment;
        uint64_t address = 0;
        const int result = harena::detail::bump(*arena, size + header,
                                                harena::detail::AllocationName{"a halide_malloc block", nullptr}, &address);
        if (result == HARENA_OK) {
            reinterpret_cast<uint64_t *>(address + header)[-1] = size;
            count(Event::heap_arena_allocation);
            return reinterpret_cast<void *>(address + header);
        }
        if (result != HARENA_ERROR_OVERFLOW || arena->overflow_policy != HARENA_OVERFLOW_FALLBACK) {
            return nullptr;  // reported; Halide then fails with out of memory
        }
    }
    count(Event::heap_default_allocation);
    return previous_malloc(user_context, size);
}

void arena_free(void *user_context, void *pointer) {
    const auto address = reinterpret_cast<uint64_t>(pointer);
    harena_arena *arena = pointer != nullptr ? harena_find(nullptr, address) : nullptr;
    if (arena == nullptr) {
        previous_free(user_context, pointer);
        return;
    }
    const uint64_t header = arena->alignment;
    const uint64_t size = reinterpret_cast<const uint64_t *>(pointer)[-1];
    // halide_free has no result: a damaged guard band is reported, and fails
    // the pipeline only through the error handler.
    (void)harena::detail::release(*arena, address - header, size + header, "halide_free");
}

}  // namespace

extern "C" int harena_install_host_heap_hook(void) {
    static std::once_flag once;
    std::call_once(once, [] {
        previous_malloc = halide_set_custom_malloc(arena_malloc);
        previous_free = halide_set_custom_free(arena_free);
    });
    return HARENA_OK;
}
