#include <algorithm>
#include <cmath>
#include <string>

#include "solver_instances/instances.h"
#include "solver_instances/rng.h"

namespace harena::instances {

namespace {

int64_t between(Rng &rng, int64_t lo, int64_t hi) {
    return lo + int64_t(rng.below(uint64_t(hi - lo) + 1));
}

double unit(Rng &rng) {
    return double(rng.next() >> 11) * 0x1.0p-53;
}

// Log-uniform in [lo, hi): an arbitrary byte count, so that two sizes are
// rarely multiples of each other (as a tensor's bytes are, once its shape
// has an odd dimension).
uint64_t bytes(Rng &rng, double lo, double hi) {
    return std::max<uint64_t>(1, uint64_t(lo * std::exp(unit(rng) * std::log(hi / lo))));
}

// A temporary's size: heavy-tailed over seven orders of magnitude, most of
// them small (scalars, shapes, reductions), a tenth large (fusion outputs,
// attention scores).
uint64_t temporary_size(Rng &rng, double scale) {
    uint64_t kind = rng.below(100);
    if (kind < 55) return bytes(rng, 4, 16 << 10);
    if (kind < 90) return bytes(rng, 16 << 10, scale / 8);
    return bytes(rng, scale / 8, scale * 4);
}

// Builds a trace step by step: each call of op() is one instruction.
struct Trace {
    Rng rng;
    Problem problem;
    int64_t step = 0;
    std::vector<size_t> temporaries;  // indices of buffers that can be dropped or copied

    size_t add(char kind, int64_t begin, int64_t end, uint64_t size) {
        // XLA aligns to 64 bytes on CPU and GPU; a few larger buffers ask for
        // a page, as device transfers do.
        uint64_t alignment = size >= (4 << 20) && rng.below(4) == 0 ? 4096 : 64;
        problem.buffers.push_back(
            Buffer{std::string(1, kind) + std::to_string(problem.buffers.size()), begin, std::max(end, begin + 1), size, alignment});
        return problem.buffers.size() - 1;
    }

    // One instruction: 0 to 2 temporaries alive 1 to 3 steps.
    void op(double scale) {
        for (int64_t k = between(rng, 0, 2); k > 0; k--) {
            temporaries.push_back(add('t', step, step + between(rng, 1, 3), temporary_size(rng, scale)));
        }
        step++;
    }

    // Exactly n buffers: temporaries dropped at random, or more of them
    // added at random steps, so that the structure above stays whole.
    Problem take(size_t n) {
        std::vector<bool> dropped(problem.buffers.size(), false);
        size_t have = problem.buffers.size();
        while (have > n && !temporaries.empty()) {
            size_t k = rng.below(temporaries.size());
            dropped[temporaries[k]] = true;
            temporaries[k] = temporaries.back();
            temporaries.pop_back();
            have--;
        }
        Problem out;
        for (size_t i = 0; i < problem.buffers.size(); i++) {
            if (!dropped[i]) out.buffers.push_back(problem.buffers[i]);
        }
        out.buffers.resize(std::min(out.buffers.size(), n));
        while (out.buffers.size() < n) {
            int64_t begin = between(rng, 0, std::max<int64_t>(0, step - 1));
            out.buffers.push_back(Buffer{"t" + std::to_string(out.buffers.size()), begin, begin + between(rng, 1, 3),
                                         temporary_size(rng, 1 << 20), 64});
        }
        return out;
    }
};

// The peak of live bytes so far (sizes rounded to 64), for sizing the huge
// buffers relative to everything else.
uint64_t peak_live(const Problem &p, int64_t steps) {
    std::vector<int64_t> delta(size_t(steps) + 2, 0);
    for (const Buffer &b : p.buffers) {
        uint64_t s = (b.size + 63) / 64 * 64;
        delta[size_t(std::min(b.begin, steps))] += int64_t(s);
        delta[size_t(std::min(b.end, steps + 1))] -= int64_t(s);
    }
    int64_t live = 0, peak = 0;
    for (int64_t d : delta)
        peak = std::max(peak, live += d);
    return uint64_t(peak);
}

// A few huge buffers, each a fifth to three fifths of the peak so far, alive
// for a short window around the given steps: they make the peak.
void add_huge(Trace &t, const std::vector<int64_t> &around) {
    const uint64_t peak = peak_live(t.problem, t.step);
    for (int64_t at : around) {
        int64_t begin = std::max<int64_t>(0, at - between(t.rng, 1, std::max<int64_t>(2, t.step / 200)));
        int64_t end = std::min(t.step, at + between(t.rng, 1, std::max<int64_t>(2, t.step / 100)));
        t.add('h', begin, end, uint64_t(double(peak) * (0.2 + 0.4 * unit(t.rng))) | 1);
    }
}

// Buffers alive for most of the program (weights, constants, optimizer
// state): small, heavy-tailed, from near the start to near the end.
void add_long_lived(Trace &t, size_t count) {
    for (size_t k = 0; k < count; k++) {
        uint64_t size = t.rng.below(10) < 8 ? bytes(t.rng, 4, 64 << 10) : bytes(t.rng, 64 << 10, 4 << 20);
        int64_t begin = between(t.rng, 0, t.step / 20);
        int64_t end = t.step - between(t.rng, 0, t.step / 20);
        t.add('w', begin, end, size);
    }
}

}  // namespace

Problem training_trace(size_t n, uint64_t seed, int microbatches) {
    Trace t{Rng(seed), {}, 0, {}};
    // About 6 buffers per layer and microbatch (an activation kept for the
    // backward pass, a gradient, a temporary per instruction), plus a
    // gradient accumulator per layer and a long-lived eighth.
    const size_t layers = std::max<size_t>(2, n * 7 / 8 / (size_t(microbatches) * 6 + 1));
    // Layers come in a few shapes (a transformer's blocks, a CNN's stages),
    // each a little different: activation bytes per layer.
    std::vector<double> scale(layers);
    for (size_t l = 0; l < layers; l++)
        scale[l] = double(bytes(t.rng, 256 << 10, 64 << 20)) * (0.9 + 0.2 * unit(t.rng));
    std::vector<size_t> accumulators;
    std::vector<int64_t> turns;
    for (int m = 0; m < microbatches; m++) {
        std::vector<size_t> saved(layers);
        for (size_t l = 0; l < layers; l++) {
            for (int64_t k = between(t.rng, 1, 3); k > 0; k--)
                t.op(scale[l]);
            saved[l] = t.add('a', t.step - 1, t.step, bytes(t.rng, scale[l] / 4, scale[l]));
        }
        turns.push_back(t.step);
        for (size_t l = layers; l-- > 0;) {
            // The gradient of the layer's output, read by the next two
            // instructions; the saved activation dies where it is read, the
            // mirrored step of its forward instruction.
            t.add('g', t.step, t.step + between(t.rng, 2, 4), bytes(t.rng, scale[l] / 4, scale[l]));
            for (int64_t k = between(t.rng, 1, 3); k > 0; k--)
                t.op(scale[l]);
            t.problem.buffers[saved[l]].end = t.step + between(t.rng, 0, 2);
            // The weight gradient accumulates over the microbatches from the
            // first backward pass to the optimizer step.
            if (m == 0) accumulators.push_back(t.add('r', t.step, t.step + 1, bytes(t.rng, 1 << 10, scale[l] / 2)));
        }
    }
    // The optimizer step reads each accumulator in turn.
    for (size_t k = 0; k < accumulators.size(); k++) {
        if (k % 4 == 0) t.op(1 << 20);
        t.problem.buffers[accumulators[k]].end = t.step;
    }
    add_long_lived(t, n / 8);
    std::vector<int64_t> around = turns;
    around.push_back(t.step / 3);
    add_huge(t, around);
    return t.take(n);
}

Problem graph_trace(size_t n, uint64_t seed) {
    Trace t{Rng(seed), {}, 0, {}};
    // Each node's output is read by the next node and, for one in six, by a
    // node much later (a skip connection or a branch of the graph joining),
    // at a distance that is heavy-tailed too.
    const size_t nodes = std::max<size_t>(4, n * 7 / 8 / 2);
    double scale = double(bytes(t.rng, 1 << 20, 32 << 20));
    for (size_t k = 0; k < nodes; k++) {
        if (t.rng.below(64) == 0) scale = double(bytes(t.rng, 1 << 20, 32 << 20));  // a new stage
        int64_t reach = t.rng.below(6) == 0 ? int64_t(bytes(t.rng, 2, double(nodes) / 4)) : between(t.rng, 1, 2);
        t.add('o', t.step, t.step + 1 + reach, bytes(t.rng, scale / 16, scale));
        t.op(scale);
    }
    add_long_lived(t, n / 8);
    add_huge(t, {t.step / 5, t.step / 2, t.step * 4 / 5});
    return t.take(n);
}

}  // namespace harena::instances
