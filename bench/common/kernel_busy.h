// The GPU's own time in a stretch of calls: how long at least one kernel
// was running, from CUPTI's activity records of kernels (each kernel's start
// and end on the GPU's clock, those of replayed CUDA graphs included). A
// call can be no faster than that; the rest of its time is launches,
// allocation, synchronisation and the host's own work, which is what an
// allocator and a launch path can change.
//
// CUPTI is loaded at run time, as Halide loads the driver:
// $HARENA_CUPTI, else libcupti.so.13 on the library path, beside the
// program, or in /usr/local/cuda. Recording slows every launch a little, so
// a benchmark records only after its timed rounds, in rounds of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace harena_bench {

struct KernelBusy {
    double us = 0;            // the union of the kernels' execution intervals
    uint64_t kernels = 0;     // records in the stretch
    uint64_t incomplete = 0;  // records without a start or an end (not counted in us)
    uint64_t dropped = 0;     // records CUPTI lost for want of buffer space
};

// The length of the union of [begin, end) intervals: time covered by
// kernels that overlap counts once.
uint64_t covered_ns(std::vector<std::pair<uint64_t, uint64_t>> intervals);

// Why a batch's busy time cannot be trusted, or empty where it can: records
// CUPTI lost or left incomplete, or kernels busy longer than the batch's
// own wall time (`batch_us`), which no real batch can be.
std::string busy_problem(const KernelBusy &busy, double batch_us);

class KernelBusyClock {
public:
    // Starts recording kernels, or returns null with the reason in `why_not`
    // (CUPTI not found, or it refused).
    static std::unique_ptr<KernelBusyClock> start(std::string &why_not);
    ~KernelBusyClock();  // stops recording
    KernelBusyClock(const KernelBusyClock &) = delete;
    KernelBusyClock &operator=(const KernelBusyClock &) = delete;

    // Forgets every kernel recorded so far. Call it with the device idle.
    void restart();
    // The kernels recorded since restart(). Call it after synchronizing the
    // device, so that every kernel of the stretch has ended.
    KernelBusy busy();

private:
    KernelBusyClock() = default;
};

}  // namespace harena_bench
