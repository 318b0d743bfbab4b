// Guard mode where planned pipelines meet it: their band size
// (harena_pipeline_guard_bytes) and each slice's band, filled when the slice
// is placed and checked when it is freed (harena_pipeline_slice, through
// guard_slice and guard_check). Their user_context is the arena, and its
// device copies go on the arena's stream.
#include <string>

#include "checking/state.h"
#include "core/arena.h"
#include "core/errors.h"
#include "harena/guard_layout.h"

namespace harena::detail {

int guard_slice(void *user_context, const char *pipeline, const char *buffer, uint64_t address, uint64_t bytes,
                uint64_t band_bytes, bool opens_slot) {
    if (int err = check_live(user_context, "harena_pipeline_slice", user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    if (arena.band_bytes == 0 || band_bytes == 0) {
        return HARENA_OK;
    }
    if (!contains(arena, address) || guard_layout::with_band(bytes, band_bytes) > arena.capacity - (address - arena.base)) {
        return report_error(user_context, HARENA_ERROR_NOT_IN_ARENA,
                            "harena_pipeline_slice: the slice of %s at 0x%llx with its band (%llu + %llu bytes) is not "
                            "inside arena %p",
                            buffer ? buffer : "a buffer", static_cast<unsigned long long>(address),
                            static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(band_bytes),
                            user_context);
    }
    return guarded(user_context, "harena_pipeline_slice", [&] {
        const uint64_t slice = address - arena.base;
        std::string name = buffer ? buffer : "?";
        GuardBand band{slice, slice + bytes, guard_layout::band_end(slice, bytes, band_bytes), opens_slot,
                       opens_slot ? name : "buffer '" + name + "'",
                       std::string("pipeline '") + (pipeline ? pipeline : "?") + "'"};
        return checks_of(arena).guards.slice(arena, guard_call(arena, user_context), std::move(band));
    });
}

int guard_check(void *user_context, uint64_t address) {
    if (int err = check_live(user_context, "harena_pipeline_slice", user_context)) {
        return err;
    }
    harena_arena &arena = *static_cast<harena_arena *>(user_context);
    if (arena.band_bytes == 0 || !contains(arena, address)) {
        return HARENA_OK;
    }
    return checks_of(arena).guards.release(arena, guard_call(arena, user_context), address - arena.base);
}

}  // namespace harena::detail

using namespace harena::detail;

extern "C" {

uint64_t harena_pipeline_guard_bytes(void *user_context) {
    if (user_context == nullptr || !is_registered(user_context)) {
        return 0;
    }
    return static_cast<const harena_arena *>(user_context)->band_bytes;
}

}  // extern "C"
