#pragma once
// Shared by the GPU graph tests: inputs written into the same device buffer
// between calls, and outputs poisoned before each call.
#include "pipeline_harness.h"

#include "HalideRuntimeCuda.h"
#include "harena/graph.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace harena_test {

// Uploads new values, as the README tells a program to: after the arena's
// stream is idle (a replay still reading the old ones must not see them
// change), and on the arena's stream (the arena as the copy's user_context),
// so that the copy is ordered before the next call. An arena without a
// stream of its own runs on the legacy stream, as the copy then does.
inline void write_input(harena::Arena &arena, Halide::Runtime::Buffer<float> &in, uint32_t seed,
                        bool arena_has_stream = true) {
    if (arena_has_stream) {
        harena::synchronize(arena);
    }
    fill_random(in, seed);
    in.set_host_dirty();
    ASSERT_EQ(in.copy_to_device(halide_cuda_device_interface(), arena.get()), 0);
}

// NaNs where the call must write, uploaded the same way.
inline void poison(harena::Arena &arena, Halide::Runtime::Buffer<float> &out) {
    out.fill(std::nanf(""));
    out.set_host_dirty();
    ASSERT_EQ(out.copy_to_device(halide_cuda_device_interface(), arena.get()), 0);
}

}  // namespace harena_test
