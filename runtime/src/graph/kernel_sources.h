// The PTX behind each kernel function the launch path (runtime/launch) loads
// (graph/kernel_notes.h), so that a captured graph can tell what memory its kernels touch
// (ptx_access.h). Kernels loaded elsewhere (Halide's own launch path, a
// library) are not known, and a graph keeps them in their captured order.
// Entries are per context (core/cuda_driver.h's context_key): a handle that
// a context destroyed since left behind is never taken for another
// context's.
#pragma once

#include <cstdint>

#include "graph/kernel_notes.h"
#include "graph/ptx_access.h"

namespace harena::detail {

// What `function` of context `context` touches, analysed on first use, in
// *access; false where its source or its accesses are not known.
bool kernel_access(uint64_t context, void *function, PtxKernelAccess *access);

}  // namespace harena::detail
