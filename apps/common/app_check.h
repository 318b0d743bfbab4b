#pragma once
// What the apps' programs share: comparing a planned run with the unplanned
// one bit for bit, and the arena's summary and verdict at the end.
#include "HalideBuffer.h"
#include "harena/runtime.h"

#include <cstdio>
#include <cstring>

namespace harena_apps {

// Calls per buffer size in the apps that vary the size: each size's buffers
// are reused across these calls.
constexpr int kCallsPerSize = 3;

// Both results on the host, then compared bit for bit.
template<typename T>
bool same_bits(Halide::Runtime::Buffer<T> &expected, Halide::Runtime::Buffer<T> &actual) {
    expected.copy_to_host();
    actual.copy_to_host();
    return expected.size_in_bytes() == actual.size_in_bytes() &&
           std::memcmp(expected.data(), actual.data(), expected.size_in_bytes()) == 0;
}

// Prints the arena's use, releases it (and the device, if one was used) and
// returns the program's exit code.
inline int finish(harena_arena *arena, const halide_device_interface_t *device, int runs, int failures) {
    harena_stats stats;
    harena_get_stats(arena, &stats);
    std::printf("arena: capacity %llu bytes, high-water %llu, frames pushed %llu\n",
                (unsigned long long)stats.capacity, (unsigned long long)stats.high_water,
                (unsigned long long)stats.frames_pushed);
    harena_destroy(arena);
    if (device != nullptr) {
        halide_device_release(nullptr, device);
    }
    std::printf("%s: %d of %d runs bit-identical to the pipeline without the plan\n", failures ? "FAILED" : "OK",
                runs - failures, runs);
    return failures ? 1 : 0;
}

}  // namespace harena_apps
