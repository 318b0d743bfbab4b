#pragma once
// The override tests' fixture: a device interface whose device memory is host
// memory (fake_device.h), so that what reaches the backend is what would
// reach the CUDA driver, and buffers declared as a pipeline declares its
// intermediates.
#include "HalideBuffer.h"
#include "fake_device.h"
#include "harena/arena.hpp"
#include "harena/override.h"

#include <gtest/gtest.h>

namespace harena_test {

// A dense float buffer without memory, as a pipeline declares an intermediate.
struct Buf {
    explicit Buf(int extent0, int extent1 = 1) {
        dim[0] = halide_dimension_t{0, extent0, 1, 0};
        dim[1] = halide_dimension_t{0, extent1, extent0, 0};
        buf.type = halide_type_of<float>();
        buf.dimensions = 2;
        buf.dim = dim;
    }
    uint64_t bytes() const {
        return buf.size_in_bytes();
    }
    halide_dimension_t dim[2];
    halide_buffer_t buf{};
};

class Override : public ::testing::Test {
protected:
    void SetUp() override {
        reset_fake_driver();
        harena_override_reset_counters();
    }

    static harena::Arena device_arena(uint64_t capacity, harena::Options options = {}) {
        harena::Arena arena = harena::Arena::device(fake_device_interface(), capacity, options);
        // The arena's own memory, a default-path allocation, is not under test.
        reset_fake_driver();
        harena_override_reset_counters();
        return arena;
    }

    static bool in(const harena::Arena &arena, const halide_buffer_t &buf) {
        return buf.device >= arena.base() && buf.device < arena.base() + arena.capacity();
    }

    static harena_override_counters counters() {
        harena_override_counters c;
        harena_override_get_counters(&c);
        return c;
    }
};

}  // namespace harena_test
