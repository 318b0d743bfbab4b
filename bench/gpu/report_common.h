// What the report's parts (report.cpp, targets.cpp, report_files.cpp) share:
// where each regime sits in a repeat's measurements and the reductions over
// repeats.
#pragma once

#include "report.h"

#include <algorithm>
#include <cstddef>

namespace bench::report {

inline constexpr size_t kHalideDefault = 1;
inline constexpr size_t kOverride = 3;
inline constexpr size_t kPlan = 4;
inline constexpr size_t kGraph = 5;
inline constexpr size_t kIdeal = 6;
static_assert(kRegimes[kHalideDefault] == Regime::halide_default && kRegimes[kOverride] == Regime::arena_override &&
                  kRegimes[kPlan] == Regime::arena_plan && kRegimes[kGraph] == Regime::arena_graph &&
                  kRegimes[kIdeal] == Regime::ideal && kIdeal + 1 == kRegimeCount,
              "report indices follow kRegimes");

// The largest value over repeats: counts and memory are the same in every
// repeat unless something nondeterministic happened, which this would show.
template<typename F>
double largest(const WorkloadResult &r, size_t regime, F value) {
    double v = 0;
    for (const auto &repeat : r.repeats) {
        v = std::max(v, static_cast<double>(value(repeat[regime])));
    }
    return v;
}

// The worst check over repeats.
inline OutputCheck output_check(const WorkloadResult &r, size_t regime) {
    OutputCheck worst = OutputCheck::identical;
    for (const auto &repeat : r.repeats) {
        worst = std::max(worst, repeat[regime].output);
    }
    return worst;
}

inline double mib(double bytes) {
    return bytes / (1024.0 * 1024.0);
}

}  // namespace bench::report
