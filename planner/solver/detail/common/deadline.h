// Internal to the solver: the wall-clock safety cap of SolverOptions.
#pragma once

#include <chrono>

namespace harena::detail {

class Deadline {
public:
    // ms <= 0 (or beyond any useful horizon): never expires.
    explicit Deadline(double ms)
        : unlimited_(!(ms > 0 && ms < 1e12)),
          at_(std::chrono::steady_clock::now() +
              std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double, std::milli>(unlimited_ ? 0 : ms))) {
    }

    bool expired() const {
        return !unlimited_ && std::chrono::steady_clock::now() >= at_;
    }

private:
    bool unlimited_;
    std::chrono::steady_clock::time_point at_;
};

}  // namespace harena::detail
