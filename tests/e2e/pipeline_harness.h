#pragma once
// Shared by the end-to-end tests: host arenas, a halide_malloc counter, the
// last Halide error message, and bit-exact buffer comparison.
#include "HalideBuffer.h"
#include "harena/runtime.h"

#include <cstdint>
#include <string>

namespace harena_test {

// Host arena of `bytes`, destroyed at scope exit.
class HostArena {
public:
    explicit HostArena(uint64_t bytes);
    ~HostArena();
    HostArena(const HostArena &) = delete;
    HostArena &operator=(const HostArena &) = delete;
    harena_arena *get() const {
        return arena_;
    }
    uint64_t high_water() const;
    uint32_t frame_depth() const;

private:
    harena_arena *arena_ = nullptr;
};

// Counts halide_malloc calls (heap allocations of intermediates) while alive.
class MallocCounter {
public:
    MallocCounter();
    ~MallocCounter();
    int count() const;
};

// The message of the last halide_error call, and a reset.
std::string last_error();
void clear_last_error();

// Deterministic pseudo-random contents.
void fill_random(Halide::Runtime::Buffer<float> &b, uint32_t seed);
void fill_random(Halide::Runtime::Buffer<uint8_t> &b, uint32_t seed);

// Empty when bit-identical, else the first differing coordinate and values.
std::string first_difference(const Halide::Runtime::Buffer<float> &a, const Halide::Runtime::Buffer<float> &b);

}  // namespace harena_test
