// Where the launch path (runtime/launch) tells the graph cache which PTX each
// kernel it loads comes from, so that a captured graph can tell what memory
// its kernels touch (graph/kernel_sources.h analyses it). Entries are per
// context (core/cuda_driver.h's context_key).
#pragma once

#include <cstdint>

namespace harena::detail {

// A module loaded in context `context` from `size` bytes of PTX at
// `source`, which stays valid for the life of the program (generated code's
// constant).
void note_kernel_module(uint64_t context, void *module, const char *source, int size);
// Function `name` (a constant string) of a module noted before.
void note_kernel_function(uint64_t context, void *function, void *module, const char *name);

}  // namespace harena::detail
