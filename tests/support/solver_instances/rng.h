// The problem generators' tiny seeded generator. The standard distributions
// differ between standard libraries, and the generated problems must not.
#pragma once

#include <cstdint>

namespace harena::instances {

class Rng {
public:
    explicit Rng(uint64_t seed)
        : state_(seed) {
    }

    // splitmix64
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    // Uniform in [0, n) for n > 0 (multiply-shift; the bias is negligible).
    uint64_t below(uint64_t n) {
        return uint64_t(((unsigned __int128)next() * n) >> 64);
    }

private:
    uint64_t state_;
};

}  // namespace harena::instances
