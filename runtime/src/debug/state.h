// Debug and guard modes: a record of what is allocated and not yet freed, so
// that every free is checked against it, and debug mode reports what is left
// alive when a frame pops. Owned by debug/records.cpp.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/allocation_name.h"

namespace harena::detail {

struct LiveAllocation {
    uint64_t offset;
    uint64_t bytes;      // of the slice: the request rounded up, band included
    uint64_t requested;  // what the caller asked for
    std::string name;
};

class DebugRecords {
public:
    // At creation: debug reports allocations alive at a pop; guard mode
    // keeps the records too, to check its frees.
    void configure(bool debug, bool guard);

    // Whether records are kept (debug or guard mode).
    [[nodiscard]] bool kept() const {
        return kept_;
    }
    [[nodiscard]] bool debug() const {
        return debug_;
    }

    // A new slice at offset of `size` bytes for a request of `requested`.
    // HARENA_ERROR_OUT_OF_MEMORY (reported to user_context) without host memory.
    int add(void *user_context, uint64_t offset, uint64_t size, uint64_t requested, const AllocationName &name);

    // Forgets the record of the allocation at offset (no-op without records).
    void forget(uint64_t offset);

    // Why a free of `size` bytes at offset `begin` matches no record: empty
    // when one matches, else the record there or that there is none. found
    // says whether a record starts at begin.
    std::string mismatch(uint64_t begin, uint64_t size, bool *found);

    // A frame at `frame_offset` pops: forgets every record from there up;
    // debug mode reports each one first (HARENA_ERROR_ALIVE_AT_POP).
    int drop_from(void *user_context, uint64_t frame_id, uint64_t frame_offset);

private:
    bool debug_ = false;
    bool kept_ = false;
    std::mutex mutex_;
    std::vector<LiveAllocation> live_;
};

}  // namespace harena::detail
