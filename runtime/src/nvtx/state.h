// Device arenas as NVTX memory heaps, so that compute-sanitizer's memcheck
// reports an access inside the arena but outside every live slice as an
// out-of-bounds access. The arena's device allocation is registered as a
// sub-allocator heap (unregistered bytes are inaccessible); each slice is a
// region of it while live: from its allocation to its free or its frame's
// pop. A frame's reservation is one region until its pusher registers its own
// slices in it (nvtx_region), so planned pipelines run without false
// reports whether or not they describe their slices.
//
// Only device arenas register, and only while a tool is attached
// (nvtx/client.h): otherwise the arena's heap pointer stays null, and the
// arena's "watched" test keeps the allocation paths from every hook.
#pragma once

#include <cstdint>

#include "nvtx/client.h"

namespace harena::detail {

// A device arena's heap and its live regions (nvtx/regions.cpp).
struct NvtxHeap;

// The device arena's memory, [address, address + bytes) (the whole device
// allocation: it contains the arena's region), becomes `heap`, replacing the
// one it had; heap stays null without a tool. The first call looks for the
// tool. owner names the arena in the trace.
void nvtx_heap_register(NvtxHeap *&heap, const void *owner, uint64_t address, uint64_t bytes);

// Before the arena's memory is freed or the arena destroyed; a no-op
// without a heap. Leaves heap null.
void nvtx_heap_unregister(NvtxHeap *&heap, const void *owner);

// The CUDA context the arena's pipelines run in (null: Halide's own). A
// region ends only once that context's work is done, and a bound arena's
// kernels run in its binding's context, not in Halide's.
void nvtx_heap_set_context(NvtxHeap *heap, void *context);

// A slice of `bytes` at address is live (nothing for 0 bytes: no access is
// valid), or no longer is (nothing if it was not registered).
void nvtx_region_register(NvtxHeap &heap, uint64_t address, uint64_t bytes);
void nvtx_region_unregister(NvtxHeap &heap, uint64_t address);

// A pushed frame's reservation of `bytes` at address is live as one region.
void nvtx_reservation_register(NvtxHeap &heap, uint64_t address, uint64_t bytes);

// A slice the frame's pusher placed itself (nvtx_region): the
// reservation holding it stops being one region, leaving only the slices
// registered in it accessible.
void nvtx_planned_register(NvtxHeap &heap, uint64_t address, uint64_t bytes);

// A frame based at `base` pops: every region from there up ends, in one
// call to the tool.
void nvtx_frame_popped(NvtxHeap &heap, uint64_t base);

// A graph capture on the calling thread begins or ends: while it lasts, a
// region ends without first waiting for the device (no kernel of the capture
// runs, and the wait is not allowed during a capture).
void nvtx_capturing(bool capturing);

// A planned pipeline's slice (harena_pipeline_slice, nvtx/abi.cpp): `bytes`
// at `address` in the arena that is user_context begins (live) or ends its
// life for the attached checker. HARENA_OK where none is attached.
int nvtx_region(void *user_context, uint64_t address, uint64_t bytes, bool live);

}  // namespace harena::detail
