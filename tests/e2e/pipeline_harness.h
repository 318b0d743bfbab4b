#pragma once
// Shared by the end-to-end tests: host arenas, a halide_malloc counter, the
// last Halide error message, and bit-exact buffer comparison.
#include "HalideBuffer.h"
#include "harena/runtime.h"

#include <algorithm>
#include <cmath>
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
// Halide 14's Buffer::fill and for_each_value flatten dense dimensions and
// then read a stride that was never set (UBSan reports it when the stack
// holds the wrong garbage). The tests' buffers are dense host allocations,
// so these walk the elements directly.
template<typename T>
void fill_dense(Halide::Runtime::Buffer<T> &b, T value) {
    std::fill_n(b.data(), b.number_of_elements(), value);
}

inline bool all_nan(const Halide::Runtime::Buffer<float> &b) {
    return std::all_of(b.data(), b.data() + b.number_of_elements(), [](float v) { return std::isnan(v); });
}

void fill_random(Halide::Runtime::Buffer<float> &b, uint32_t seed);
void fill_random(Halide::Runtime::Buffer<uint8_t> &b, uint32_t seed);

// Empty when bit-identical, else the first differing coordinate and values.
std::string first_difference(const Halide::Runtime::Buffer<float> &a, const Halide::Runtime::Buffer<float> &b);

}  // namespace harena_test
