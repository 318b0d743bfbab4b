#include "solver_instances/instances.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "solver_instances/rng.h"

namespace harena::instances {

namespace {

// Uniform in [lo, hi].
int64_t between(Rng &rng, int64_t lo, int64_t hi) {
    return lo + int64_t(rng.below(uint64_t(hi - lo) + 1));
}

// Log-uniform in [lo, hi). Draws come from Rng, not <random>, whose
// distributions differ between standard libraries.
uint64_t log_uniform(Rng &rng, uint64_t lo, uint64_t hi) {
    double u = double(rng.next() >> 11) * 0x1.0p-53;
    return std::min(hi - 1, uint64_t(double(lo) * std::exp(u * std::log(double(hi) / double(lo)))));
}

Buffer make(const std::string &prefix, size_t index, int64_t begin, int64_t end, uint64_t size) {
    return Buffer{prefix + std::to_string(index), begin, end, size, 256};
}

}  // namespace

Problem uniform_random(size_t n, uint64_t seed) {
    Rng rng(seed);
    Problem p;
    for (size_t i = 0; i < n; i++) {
        int64_t begin = between(rng, 0, int64_t(n));
        int64_t length = between(rng, 1, 100);
        p.buffers.push_back(make("b", i, begin, begin + length, log_uniform(rng, 1 << 10, 4 << 20)));
    }
    return p;
}

Problem pipeline(size_t n, uint64_t seed) {
    Rng rng(seed);
    Problem p;
    int64_t step = 0;
    // Buffers alive across blocks (a stage's output read many stages later):
    // 1 in 200, each alive for 20 to 500 steps, so that two or three are alive
    // at any time.
    size_t long_lived = std::max<size_t>(1, n / 200);
    while (p.buffers.size() + long_lived < n) {
        uint64_t base = log_uniform(rng, 64 << 10, 16 << 20);
        int depth = int(between(rng, 2, 5));
        std::vector<size_t> skips;  // encoder outputs waiting for their decoder
        auto stage = [&](uint64_t size) {
            // The stage output, read by the next one or two stages...
            size_t out = p.buffers.size();
            p.buffers.push_back(make("s", out, step, step + between(rng, 2, 3), size));
            // ...and 0 to 2 scratch buffers that live only inside the stage.
            for (int k = int(between(rng, 0, 2)); k > 0 && p.buffers.size() + long_lived < n; k--) {
                p.buffers.push_back(make("t", p.buffers.size(), step, step + 1, log_uniform(rng, 1024, size / 2 + 1025)));
            }
            step++;
            return out;
        };
        for (int level = 0; level < depth && p.buffers.size() + long_lived < n; level++) {
            skips.push_back(stage(base >> (2 * level)));
        }
        for (int level = depth - 1; level >= 0 && p.buffers.size() + long_lived < n; level--) {
            // The decoder stage reads the encoder output of its level.
            p.buffers[skips[size_t(level)]].end = step + 1;
            stage(base >> (2 * level));
        }
    }
    for (size_t k = 0; k < long_lived && p.buffers.size() < n; k++) {
        int64_t begin = between(rng, 0, std::max<int64_t>(0, step - 1));
        int64_t end = std::min(step, begin + between(rng, 20, 500));
        p.buffers.push_back(make("l", p.buffers.size(), begin, std::max(end, begin + 1), log_uniform(rng, 64 << 10, 8 << 20)));
    }
    return p;
}

Problem perfect_packing(size_t n, uint64_t seed) {
    Rng rng(seed);
    struct Piece {
        int64_t begin, end;
        uint64_t low, high;  // bytes, multiples of 256
    };
    // Time and address extents large enough that n cuts never run out of room.
    const int64_t steps = int64_t(4 * n + 8);
    const uint64_t units = 16 * n + 64;  // of 256 bytes
    std::vector<Piece> pieces = {{0, steps, 0, units * 256}};
    while (pieces.size() < n) {
        // Cut a random piece among those that can still be cut.
        size_t k = rng.below(pieces.size());
        Piece piece = pieces[k];
        bool can_time = piece.end - piece.begin >= 2, can_space = piece.high - piece.low >= 512;
        if (!can_time && !can_space) continue;
        bool in_time = can_time && (!can_space || rng.below(2) == 0);
        Piece other = piece;
        if (in_time) {
            int64_t cut = between(rng, piece.begin + 1, piece.end - 1);
            piece.end = other.begin = cut;
        } else {
            uint64_t cut = piece.low + 256 * uint64_t(between(rng, 1, int64_t((piece.high - piece.low) / 256) - 1));
            piece.high = other.low = cut;
        }
        pieces[k] = piece;
        pieces.push_back(other);
    }
    Problem p;
    for (size_t i = 0; i < pieces.size(); i++) {
        p.buffers.push_back(make("p", i, pieces[i].begin, pieces[i].end, pieces[i].high - pieces[i].low));
    }
    return p;
}

Problem cut_square(size_t n, uint64_t seed, bool keep_all) {
    Rng rng(seed);
    struct Piece {
        int64_t begin, end;  // units of 1024 steps
        int64_t low, high;   // units of 1024 bytes
        int64_t area() const {
            return (end - begin) * (high - low);
        }
    };
    constexpr int64_t kUnits = 1024;
    std::vector<Piece> pieces = {{0, kUnits, 0, kUnits}};
    while (pieces.size() < n) {
        // A piece by the square root of its area: large pieces are cut more
        // often, but small ones still get cut into strips.
        uint64_t total = 0;
        for (const Piece &p : pieces)
            total += uint64_t(std::sqrt(double(p.area())) * 16);
        uint64_t pick = rng.below(total);
        size_t k = 0;
        for (uint64_t w; pick >= (w = uint64_t(std::sqrt(double(pieces[k].area())) * 16)); k++)
            pick -= w;
        Piece piece = pieces[k];
        bool can_time = piece.end - piece.begin >= 2, can_space = piece.high - piece.low >= 2;
        if (!can_time && !can_space) continue;
        bool in_time = can_time && (!can_space || rng.below(2) == 0);
        Piece other = piece;
        if (in_time) {
            piece.end = other.begin = between(rng, piece.begin + 1, piece.end - 1);
        } else {
            piece.high = other.low = between(rng, piece.low + 1, piece.high - 1);
        }
        pieces[k] = piece;
        pieces.push_back(other);
    }
    // Dropped pieces must leave one step fully covered, so that the bound
    // stays 2^20: keep every piece alive at a random step.
    const int64_t full_step = between(rng, 0, kUnits - 1);
    Problem p;
    for (size_t i = 0; i < pieces.size(); i++) {
        const Piece &c = pieces[i];
        bool at_full_step = c.begin <= full_step && full_step < c.end;
        if (!keep_all && !at_full_step && rng.below(4) == 0) continue;
        p.buffers.push_back(Buffer{"c" + std::to_string(i), c.begin * 1024, c.end * 1024,
                                   uint64_t(c.high - c.low) * 1024, 1});
    }
    return p;
}

Problem forward_backward(size_t n, uint64_t seed) {
    Rng rng(seed);
    Problem p;
    const int64_t steps = std::max<int64_t>(2, int64_t(3 * n / 2));
    for (size_t i = 0; i < n; i++) {
        uint64_t kind = rng.below(100);
        int64_t begin, end;
        uint64_t size;
        if (kind < 15) {
            // An activation kept for the backward pass, which frees it at the
            // mirrored step; the forward pass takes the second quarter.
            begin = between(rng, steps / 4, steps / 2 - 1);
            end = std::min(steps, steps - begin + between(rng, 0, 16));
            size = log_uniform(rng, 64 << 10, 9'400'000'000);
        } else if (kind < 27) {
            begin = between(rng, 0, steps - 1);
            end = begin + int64_t(log_uniform(rng, 8, uint64_t(std::max<int64_t>(9, steps / 8))));
            size = log_uniform(rng, 256, 256 << 20);
        } else {
            begin = between(rng, 0, steps - 1);
            end = begin + between(rng, 1, 8);
            size = log_uniform(rng, 2, 1 << 30);
        }
        p.buffers.push_back(make("f", i, begin, std::max(end, begin + 1), size));
    }
    return p;
}

}  // namespace harena::instances
