// The buffers the benchmark hands to pipelines: device memory allocated once
// per workload, and halide_buffer_t views over it, so that no run allocates
// its inputs or outputs and every regime sees the same addresses.
#pragma once

#include "HalideRuntime.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace bench {

// Device memory obtained through Halide's CUDA interface outside any arena
// scope; freed by the destructor.
class DeviceBlock {
public:
    explicit DeviceBlock(uint64_t bytes);
    ~DeviceBlock();
    DeviceBlock(const DeviceBlock &) = delete;
    DeviceBlock &operator=(const DeviceBlock &) = delete;

    [[nodiscard]] uint64_t address() const {
        return buf_.device;
    }
    [[nodiscard]] uint64_t bytes() const {
        return buf_.size_in_bytes();
    }

    // Seeded uniform floats in [low, high) over the whole block.
    void fill_random(uint32_t seed, float low, float high);

private:
    halide_buffer_t buf_{};
    halide_dimension_t dim_{};
};

// A float buffer over device memory owned elsewhere: Halide reads and writes
// it but never allocates or frees it. Not movable: buf_.dim points into it.
class DeviceView {
public:
    // Dense, mins 0, at `address`.
    DeviceView(const std::vector<int> &extents, uint64_t address);
    // A bounds query of this many dimensions: a pipeline fills in the shape
    // it needs; bind() then points it at memory.
    explicit DeviceView(int dimensions);
    DeviceView(const DeviceView &) = delete;
    DeviceView &operator=(const DeviceView &) = delete;

    [[nodiscard]] halide_buffer_t *raw() {
        return &buf_;
    }
    [[nodiscard]] uint64_t bytes() const {
        return buf_.size_in_bytes();
    }
    void bind(uint64_t address);

    // The elements, copied to the host (the view must be dense).
    [[nodiscard]] std::vector<float> read() const;
    // Every element set to a NaN (the view must be dense): an output check
    // after this cannot pass on what an earlier run left there.
    void poison();

private:
    halide_buffer_t buf_{};
    halide_dimension_t dim_[4]{};
};

}  // namespace bench
