// The key of a call through a graph cache: everything its captured graph
// bakes in, so that a call replays a graph only where the graph would do
// what the call would.
#pragma once

#include <string>

#include "HalideRuntime.h"
#include "harena/runtime.h"

namespace harena::detail {

struct ArenaCore;

// Into `key` (a buffer the cache keeps, so that a replay allocates nothing):
// the caller's bytes (the function and its scalar arguments), the arena's
// identity, region and top, its stream (the CUDA binding's), and every
// buffer's device address, device interface, type and shape.
void key_of(std::string &key, const ArenaCore &arena, void *stream, const void *bytes, size_t size,
            halide_buffer_t *const *buffers, int count);

}  // namespace harena::detail
