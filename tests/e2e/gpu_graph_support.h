#pragma once
// Shared by the GPU graph tests: inputs written into the same device buffer
// between calls, and outputs poisoned before each call.
#include "pipeline_harness.h"

#include "HalideRuntimeCuda.h"
#include "harena/graph.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace harena_test {

// Uploads new values (on the legacy stream, after the arena's stream is idle:
// a replay still reading the old ones must not see them change). An arena
// without a stream of its own runs on the legacy stream already.
inline void write_input(harena::Arena &arena, Halide::Runtime::Buffer<float> &in, uint32_t seed,
                        bool arena_has_stream = true) {
    if (arena_has_stream) {
        harena::synchronize(arena);
    }
    fill_random(in, seed);
    in.set_host_dirty();
    ASSERT_EQ(in.copy_to_device(halide_cuda_device_interface()), 0);
}

inline void poison(Halide::Runtime::Buffer<float> &out) {
    out.fill(std::nanf(""));
    out.set_host_dirty();
    ASSERT_EQ(out.copy_to_device(halide_cuda_device_interface()), 0);
}

}  // namespace harena_test
