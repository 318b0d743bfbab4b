// harena_pipeline_slice and harena_pipeline_slices_end (harena/pipeline_abi.h):
// a planned pipeline's slice events, one call each, carried out by guard mode
// (guard/state.h) and the memory-checker regions (nvtx/state.h), and the call's
// first failure kept in its slice table until its frame ends.
#include "core/errors.h"
#include "guard/state.h"
#include "harena/guard_layout.h"
#include "nvtx/state.h"
#include "harena/pipeline_abi.h"
#include "harena/runtime.h"

#include <cstddef>
#include <cstring>
#include <string>

namespace {

// The pass builds the table as a Halide struct of a handle and an int32:
// the C layout on every target it supports.
static_assert(offsetof(harena_slice_table, status) == sizeof(const char *),
              "harena_slice_table must be the pass's (handle, int32) struct");

// Line `k` of a slice table's names ('\n'-ended lines; line 0 is the
// pipeline), or "?" where there is no such line.
std::string table_line(const char *names, uint32_t k) {
    const char *line = names;
    for (uint32_t i = 0; line != nullptr && i < k; i++) {
        line = std::strchr(line, '\n');
        line = line != nullptr ? line + 1 : nullptr;
    }
    if (line == nullptr || *line == '\0') {
        return "?";
    }
    const char *end = std::strchr(line, '\n');
    return end != nullptr ? std::string(line, end) : std::string(line);
}

int band_new_slice(void *user_context, const char *names, uint32_t index, uint64_t address, uint64_t slice_bytes,
                   uint64_t bytes, uint64_t guard, bool opens_slot) {
    return harena::detail::guarded(user_context, "harena_pipeline_slice", [&] {
        const std::string pipeline = table_line(names, 0), buffer = table_line(names, index + 1);
        return harena::detail::guard_slice(user_context, pipeline.c_str(), buffer.c_str(), address, bytes,
                                           harena::guard_layout::planned_band_bytes(slice_bytes, bytes, guard),
                                           opens_slot);
    });
}

int slice_event(void *user_context, const char *names, uint32_t index, int live, uint64_t address,
                uint64_t slice_bytes, uint64_t bytes) {
    const bool checker = harena_nvtx_attached() != 0;
    const uint64_t guard = harena_pipeline_guard_bytes(user_context);
    if (live == HARENA_SLICE_SLOT_OPENED) {
        // A band only: nothing a checker may let a kernel touch.
        return guard != 0 ? band_new_slice(user_context, names, index, address, 0, 0, guard, true) : HARENA_OK;
    }
    if (live) {
        if (checker) {
            if (int err = harena::detail::nvtx_region(user_context, address, bytes, true)) {
                return err;
            }
        }
        return guard != 0 ? band_new_slice(user_context, names, index, address, slice_bytes, bytes, guard, false) :
                            HARENA_OK;
    }
    if (guard != 0) {
        if (int err = harena::detail::guard_check(user_context, address)) {
            return err;
        }
    }
    return checker ? harena::detail::nvtx_region(user_context, address, 0, false) : HARENA_OK;
}

}  // namespace

extern "C" {

int harena_pipeline_slice(void *user_context, harena_slice_table *table, uint32_t index, int live, uint64_t address,
                          uint64_t slice_bytes, uint64_t bytes) {
    if (table == nullptr) {
        return harena::detail::report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT,
                                            "harena_pipeline_slice: no slice table (the pipeline builds one "
                                            "where its frame opens)");
    }
    const int err = slice_event(user_context, table->names, index, live, address, slice_bytes, bytes);
    if (err != HARENA_OK) {
        // Events of one call may come from several threads (planned buffers
        // inside parallel loops): the first error stays.
        int32_t none = HARENA_OK;
        __atomic_compare_exchange_n(&table->status, &none, err, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    return err;
}

int harena_pipeline_slices_end(void *user_context, harena_slice_table *table, uint64_t frame_base) {
    if (table == nullptr) {
        return harena::detail::report_error(user_context, HARENA_ERROR_INVALID_ARGUMENT,
                                            "harena_pipeline_slices_end: no slice table (the pipeline builds "
                                            "one where its frame opens)");
    }
    if (int err = __atomic_load_n(&table->status, __ATOMIC_ACQUIRE)) {
        return err;
    }
    return harena_pipeline_guard_bytes(user_context) != 0 ? harena::detail::guard_check(user_context, frame_base) : HARENA_OK;
}

}  // extern "C"
