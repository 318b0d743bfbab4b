#pragma once
// The test generators' AOT functions, plain and planned, in one table so that
// each property is checked on every pipeline. The functions are named e2e_<name>_*
// for host builds and e2e_<name>_cuda_* for CUDA builds (see CMakeLists.txt).
#include "HalideRuntime.h"

#include <cstdint>
#include <ostream>

namespace harena_test {

using PlainFn = int (*)(halide_buffer_t *, int32_t, halide_buffer_t *);
using PlannedFn = int (*)(const void *, halide_buffer_t *, int32_t, halide_buffer_t *);

struct GeneratedPipeline {
    const char *name;
    PlainFn plain;
    PlannedFn planned;
    uint64_t arena_bytes;     // from the generated <name>.arena.h
    bool capturable = false;  // <NAME>_ARENA_CAPTURABLE: a CUDA graph of one call replays it
    // Its kernels launch inside parallel CPU loops, whose tasks Halide's
    // worker threads run: the override serves only the scope's own thread.
    bool launches_in_parallel_loops = false;
};

// For gtest's messages: parameters print as their names.
inline void PrintTo(const GeneratedPipeline &p, std::ostream *os) {
    *os << p.name;
}

// A generator that declares estimates only (tests/generators/level_pyramid.cpp,
// follow_input.cpp): its plan has no worst case, and each call's arena bytes
// follow the call's sizes. Its scalar argument has an estimate too.
struct EstimatedPipeline {
    const char *name;
    PlainFn plain;
    PlannedFn planned;
    uint64_t bytes_at_estimates;  // <NAME>_ARENA_BYTES_AT_ESTIMATES
    int extent_estimate;          // of every buffer dimension
    int scalar_estimate;
};

inline void PrintTo(const EstimatedPipeline &p, std::ostream *os) {
    *os << p.name;
}

// Largest output extent every generator declares (tests/generators/common.h).
constexpr int kMaxExtent = 512;
// The scalar k's declared range.
constexpr int kMinK = 1, kMaxK = 16;

}  // namespace harena_test
