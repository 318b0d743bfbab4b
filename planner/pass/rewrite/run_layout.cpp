#include "rewrite/run_layout.h"

#include "harena/guard_layout.h"
#include "runtime_calls.h"
#include "solver/compaction.h"

#include <algorithm>
#include <numeric>

namespace harena {

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The bytes a buffer takes in this call, evaluated where the frame opens.
// Like the plan's sizes, at least one alignment unit: a buffer of no bytes
// would keep no order with the buffers alive with it (solver/compaction.h).
Expr call_bytes(const Candidate &c, uint64_t alignment) {
    return cast(UInt(64), max(c.per_call, make_const(Int(64), (int64_t)alignment)));
}

// The supports each buffer needs to name: a support that lies below another
// support ends below where that one starts in every call, so it never decides
// the start. Keeps each offset's expression short (nothing simplifies after
// this pass). `order` lists every support before what it supports.
std::vector<std::vector<size_t>> direct_supports(const std::vector<std::vector<size_t>> &below,
                                                 const std::vector<size_t> &order) {
    const size_t n = below.size(), words = (n + 63) / 64;
    // beneath[i]: the buffers transitively below i, as a bit set merged word
    // by word, so that this stays fast for thousands of buffers.
    std::vector<std::vector<uint64_t>> beneath(n, std::vector<uint64_t>(words, 0));
    std::vector<std::vector<size_t>> direct(n);
    for (size_t i : order) {
        std::vector<uint64_t> &under = beneath[i];
        for (size_t k : below[i]) {
            for (size_t w = 0; w < words; w++) {
                under[w] |= beneath[k][w];
            }
        }
        // Now `under` holds what lies beneath i's supports: those supports
        // are implied.
        for (size_t j : below[i]) {
            if (!((under[j / 64] >> (j % 64)) & 1)) {
                direct[i].push_back(j);
            }
        }
        for (size_t j : below[i]) {
            under[j / 64] |= uint64_t(1) << (j % 64);
        }
    }
    return direct;
}

// compact_offsets (solver/compaction.h) as expressions: each buffer starts
// where the highest of the buffers it rests on in the plan ends. Each size is
// a let of its own, evaluated once per run: nothing simplifies or eliminates
// common subexpressions after this pass, and a size appears in the offset of
// every buffer that rests on it.
//
// In guard mode (harena_pipeline_guard_bytes) every slice is followed by a
// band and the frame starts with one: the same replay with each size grown by
// the band, which keeps every two buffers alive together apart for any sizes.
}  // namespace

RunLayout run_layout(const Problem &problem, const Plan &plan, const std::vector<const Candidate *> &planned,
                     uint64_t alignment, const std::string &prefix, bool guard_bands, const Expr &shared_guard) {
    std::vector<size_t> order(planned.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return plan.offsets[a] < plan.offsets[b]; });
    std::vector<std::vector<size_t>> below = direct_supports(supports(problem, plan), order);
    RunLayout layout;
    const Expr a = make_const(UInt(64), alignment);
    // A multiple of the alignment once the entry accepts the call
    // (harena/guard_layout.h).
    if (guard_bands && shared_guard.defined()) {
        layout.guard = shared_guard;
    } else if (guard_bands) {
        layout.lets.emplace_back(prefix + "guard", runtime_calls::guard_bytes());
        layout.guard = Variable::make(UInt(64), prefix + "guard");
    } else {
        layout.guard = make_zero(UInt(64));
    }
    std::vector<Expr> &sizes = layout.sizes;
    sizes.resize(planned.size());
    for (size_t i = 0; i < planned.size(); i++) {
        Expr bytes = simplify(call_bytes(*planned[i], alignment));
        if (is_const(bytes)) {
            sizes[i] = bytes;
        } else {
            std::string name = prefix + "size." + std::to_string(i);
            layout.lets.emplace_back(name, bytes);
            sizes[i] = Variable::make(UInt(64), name);
        }
    }
    layout.offsets.resize(planned.size());
    layout.needed = make_zero(UInt(64));
    const Expr &guard = layout.guard;
    std::vector<bool> supports_another(planned.size(), false);
    for (size_t i : order) {
        Expr start = guard_layout::first_slice_offset(guard);
        for (size_t j : below[i]) {
            start = max(start, guard_layout::band_end(layout.offsets[j], sizes[j], guard));
            supports_another[j] = true;
        }
        std::string name = prefix + "offset." + std::to_string(i);
        layout.lets.emplace_back(name, simplify(((start + a - 1) / a) * a));
        layout.offsets[i] = Variable::make(UInt(64), name);
    }
    // A buffer that another rests on ends below that one's end.
    for (size_t i : order) {
        if (!supports_another[i]) {
            layout.needed = max(layout.needed, guard_layout::band_end(layout.offsets[i], sizes[i], guard));
        }
    }
    layout.needed = simplify(layout.needed);
    return layout;
}

}  // namespace harena
