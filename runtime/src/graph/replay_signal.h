// A graph cache's completion word: how a thread waits for its replay
// without entering the driver. Once harena_graph_wait has been called on a
// cache, every graph it captures ends with a one-thread kernel that counts
// the cache's graph runs in device memory and stores the count in a word of
// pinned host memory mapped into the device. A thread waiting for its n-th
// graph run reads that word until it holds n. cuStreamSynchronize would
// enter the driver, where threads replaying at once queue behind one
// another's launches (docs/results/gpu-bench.md, "Waiting for a replay").
// The kernel costs each replay about 1.6 us of GPU time (a captured
// cuStreamWriteValue64 costs the same), so a cache that is never waited on
// (its caller waits as Halide does, through a copy or a device sync) captures
// its graphs without it.
#pragma once

#include <cstdint>

namespace harena::detail {

struct GraphBackend;

// The word and what writes it; made by the graph backend (graph/backend.h).
struct ReplaySignal {
    uint64_t *word = nullptr;   // host memory the kernel stores the count in
    uint64_t word_device = 0;   // the same word's device address
    uint64_t count_device = 0;  // the count, in device memory
    void *module = nullptr;     // the kernel's module and function
    void *function = nullptr;
};

// How long a wait reads the word before it waits on the stream instead
// (a kernel that faulted never writes it; a long pipeline need not spin).
inline constexpr uint64_t kSignalSpinNanoseconds = 200'000;

// A cache's signal and what its last call left to wait for.
class ReplayWaiter {
public:
    ReplayWaiter() = default;
    ReplayWaiter(const ReplayWaiter &) = delete;
    ReplayWaiter &operator=(const ReplayWaiter &) = delete;

    // harena_graph_wait was called: later captures end with the signal.
    void wanted() {
        wanted_ = true;
    }

    // Before a capture, in the stream's context: the signal to end the graph
    // with, made at the first capture after a wait; null before any wait or
    // where it cannot be made (the graph is then captured without it and
    // waited for on the stream).
    const ReplaySignal *for_capture(const GraphBackend &backend, void *stream);

    // What the last call launched: a graph that ends with the signal, or
    // anything else (an ordinary call, a graph without it, an error).
    void launched_with_signal() {
        ticket_ = ++launched_;
    }
    void launched_other() {
        ticket_ = 0;
    }

    // True once the last call's graph has written its count (read for at
    // most kSignalSpinNanoseconds); false where the last call launched no
    // such graph or it did not finish in time: wait on the stream then.
    [[nodiscard]] bool signalled() const;

    // Whether a graph launched with the signal may still write the word: the
    // stream must be waited for before release.
    [[nodiscard]] bool outstanding() const;
    // Frees the signal, in the stream's context, nothing outstanding.
    void release(const GraphBackend &backend);

private:
    // Made (its word exists), which for_capture does at the first capture.
    bool made() const {
        return signal_.word != nullptr;
    }

    ReplaySignal signal_;
    bool usable_ = true;     // false once it could not be made
    bool wanted_ = false;    // harena_graph_wait has been called
    uint64_t launched_ = 0;  // graph runs with the signal launched so far
    uint64_t ticket_ = 0;    // the count the last call's graph writes; 0: none
};

}  // namespace harena::detail
