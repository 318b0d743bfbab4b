// Memory-checker regions where planned pipelines meet them: whether a checker
// is attached (harena_nvtx_attached), and the slices they place in their
// frames (harena_pipeline_slice, through nvtx_region).
#include "checking/state.h"
#include "core/arena.h"
#include "core/errors.h"
#include "nvtx/client.h"

using namespace harena::detail;

extern "C" int harena_nvtx_attached(void) {
    return nvtx::attached() ? 1 : 0;
}

int harena::detail::nvtx_region(void *user_context, uint64_t address, uint64_t bytes, bool live) {
    if (!nvtx::attached()) {
        return HARENA_OK;
    }
    const char *function = "harena_pipeline_slice";
    if (int err = check_live(user_context, function, user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    NvtxHeap *heap = nvtx_heap_of(arena);
    if (heap == nullptr) {
        return HARENA_OK;
    }
    if (!contains(arena, address) || bytes > arena.base + arena.capacity - address) {
        return report_error(user_context, HARENA_ERROR_NOT_IN_ARENA,
                            "%s: [0x%llx, +%llu) does not lie in arena %p [0x%llx, 0x%llx)", function,
                            static_cast<unsigned long long>(address), static_cast<unsigned long long>(bytes),
                            user_context, static_cast<unsigned long long>(arena.base),
                            static_cast<unsigned long long>(arena.base + arena.capacity));
    }
    if (live) {
        nvtx_planned_register(*heap, address, bytes);
    } else {
        nvtx_region_unregister(*heap, address);
    }
    return HARENA_OK;
}
