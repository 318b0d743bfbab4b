// What the cross-stream suites share: streams in device 0's primary context,
// and rounds of work that reuse the same bytes on stream after stream, each
// round filling its buffers and checking them after a delay long enough for
// a previous round's late fill to land, were the rounds not ordered.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "pattern_kernels.h"

namespace harena_test {

// Streams made in the kernels' context, destroyed with the object.
struct TestStreams {
    explicit TestStreams(int count);
    ~TestStreams();
    TestStreams(const TestStreams &) = delete;
    TestStreams &operator=(const TestStreams &) = delete;
    std::vector<CUstream> streams;
};

// One round's buffer: where, and how many words.
struct RoundBuffer {
    uint64_t address;
    uint32_t words;
};

// The GPU times of a round: a fill that starts late and a check that starts
// later still, so that unordered rounds overlap.
constexpr uint64_t kFillDelayNs = 300'000;
constexpr uint64_t kCheckDelayNs = 700'000;

// Words per round buffer: 2^20 (4 MiB), or HARENA_STREAM_TEST_WORDS (fewer
// keep runs under compute-sanitizer short; the rounds' overlap comes from
// their delays, not their sizes).
uint32_t round_words();

// Queues round `round`'s fill and check of `buffers` on `stream`.
void queue_round(CUstream stream, int round, const std::vector<RoundBuffer> &buffers, const ErrorCount &errors);

// A test backend that passes records to CUDA and drops every stream wait,
// installed for the whole program when HARENA_TEST_DROP_STREAM_WAIT=1: the
// suites then show what they catch without the event.
bool drop_stream_waits_if_asked();

}  // namespace harena_test
