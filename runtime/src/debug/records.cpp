// The record of live allocations (debug and guard modes).
#include "debug/state.h"

#include <algorithm>
#include <new>

#include "core/errors.h"
#include "harena/runtime.h"

namespace harena::detail {

void DebugRecords::configure(bool debug, bool guard) {
    debug_ = debug;
    kept_ = debug || guard;
}

int DebugRecords::add(void *user_context, uint64_t offset, uint64_t size, uint64_t requested,
                      const AllocationName &name) {
    try {
        std::string text = name.known() ? name.text() : "an unnamed allocation";
        std::lock_guard<std::mutex> lock(mutex_);
        live_.push_back(LiveAllocation{offset, size, requested, std::move(text)});
    } catch (const std::bad_alloc &) {
        return report_error(user_context, HARENA_ERROR_OUT_OF_MEMORY,
                            "harena: out of host memory for the record of allocations (debug and guard modes)");
    }
    return HARENA_OK;
}

void DebugRecords::forget(uint64_t offset) {
    if (!kept_) {
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
        if (it->offset == offset) {
            live_.erase(std::next(it).base());
            return;
        }
    }
}

std::string DebugRecords::mismatch(uint64_t begin, uint64_t size, bool *found) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = live_.rbegin(); it != live_.rend(); ++it) {
        if (it->offset == begin) {
            *found = true;
            if (it->bytes == size) {
                return std::string();
            }
            return "the allocation there is " + it->name + " of " + bytes_text(it->requested).text;
        }
    }
    *found = false;
    return "no live allocation starts there (freed already, or never allocated)";
}

int DebugRecords::drop_from(void *user_context, uint64_t frame_id, uint64_t frame_offset) {
    std::lock_guard<std::mutex> lock(mutex_);
    int result = HARENA_OK;
    for (const LiveAllocation &a : live_) {
        if (debug_ && a.offset >= frame_offset) {
            result = report_error(user_context, HARENA_ERROR_ALIVE_AT_POP,
                                  "harena: frame #%llu popped while %s (%s at offset %llu) is still alive; "
                                  "its memory will be reused, so free it before the frame ends",
                                  static_cast<unsigned long long>(frame_id), a.name.c_str(),
                                  bytes_text(a.bytes).text, static_cast<unsigned long long>(a.offset));
        }
    }
    live_.erase(std::remove_if(live_.begin(), live_.end(),
                               [&](const LiveAllocation &a) { return a.offset >= frame_offset; }),
                live_.end());
    return result;
}

}  // namespace harena::detail
