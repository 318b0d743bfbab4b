// Device arenas as NVTX memory heaps, so that compute-sanitizer's memcheck
// reports an access inside the arena but outside every live slice as an
// out-of-bounds access. The arena's device allocation is registered as a
// sub-allocator heap (unregistered bytes are inaccessible); each slice is a
// region of it while live: from its allocation to its free or its frame's
// pop. A frame's reservation is one region until its pusher registers its own
// slices in it (harena_nvtx_region), so planned pipelines run without false
// reports whether or not they describe their slices.
//
// Only device arenas register, and only while a tool is attached
// (nvtx_client.h): otherwise harena_arena::nvtx stays null and each hook in
// the allocation paths is that one null test.
#pragma once

#include <cstdint>

struct harena_arena;

namespace harena::detail {

// A device arena's heap and its live regions (nvtx_regions.cpp).
struct NvtxHeap;

// The arena's device memory, [address, address + bytes) (the whole device
// allocation: it contains [base, base + capacity)), becomes its heap,
// replacing the one it had. The first call looks for the tool. Device arenas
// only; a no-op without a tool.
void nvtx_heap_register(harena_arena &arena, uint64_t address, uint64_t bytes);

// Before the arena's memory is freed or the arena destroyed; a no-op without a heap.
void nvtx_heap_unregister(harena_arena &arena);

// With arena.nvtx non-null. A slice of `bytes` at address is live (nothing
// for 0 bytes: no access is valid), or no longer is (nothing if it was not
// registered).
void nvtx_region_register(harena_arena &arena, uint64_t address, uint64_t bytes);
void nvtx_region_unregister(harena_arena &arena, uint64_t address);

// With arena.nvtx non-null. A pushed frame's reservation of `bytes` at
// address is live as one region.
void nvtx_reservation_register(harena_arena &arena, uint64_t address, uint64_t bytes);

// With arena.nvtx non-null. A frame based at `base` pops: every region from
// there up ends, in one call to the tool.
void nvtx_frame_popped(harena_arena &arena, uint64_t base);

// A graph capture on the calling thread begins or ends: while it lasts, a
// region ends without first waiting for the device (no kernel of the capture
// runs, and the wait is not allowed during a capture).
void nvtx_capturing(bool capturing);

}  // namespace harena::detail
