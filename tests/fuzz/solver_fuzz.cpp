// Fuzz target: the offset solver against its independent validator, on
// problems of at most 64 buffers decoded from the input. A problem that
// check_problem accepts must be solved, and its plan must validate, respect
// the lower bound and replay validly (compaction.h) for any smaller sizes;
// one it refuses must be refused by solve too, with an InputError.
//
// Input: one byte of solver options, one of time base, one of buffer count,
// then per buffer: begin, length, a size class and its bytes, alignment, and
// the fraction of the size a replay uses.
#include <algorithm>
#include <climits>
#include <string>

#include "fuzz_support.h"
#include "solver/compaction.h"
#include "solver/problem.h"
#include "solver/solver.h"
#include "solver/validator.h"

namespace {

using harena_fuzz::ByteReader;

constexpr size_t kMaxBuffers = 64;

harena::SolverOptions decode_options(uint8_t bits) {
    harena::SolverOptions o;
    if (bits & 1) {
        o.improve_passes = 0;  // the greedy passes alone
    }
    // The exact search spends its whole budget where the lower bound is out
    // of reach: a tenth of the default keeps the fuzzer fast, and one input
    // in eight keeps the default.
    if (bits & 2) {
        o.search_max_buffers = 0;  // no exact search
    } else if (bits & 4) {
        o.search_work_per_buffer = 1 + bits;  // a search cut short
    } else if (!(bits & 128)) {
        o.search_work_per_buffer /= 10;
    }
    if (bits & 8) {
        o.good_enough_ratio = 1.0;  // insist on the bound
    }
    if (bits & 16) {
        o.lowest_first_orders.clear();
    }
    if (bits & 32) {
        o.first_fit_orders = {harena::Order::LengthDesc, harena::Order::PressureDesc, harena::Order::BeginAsc};
    }
    if (bits & 64) {
        o.slack_weight = 0;
    }
    return o;
}

// Times near both ends of int64_t, so that no time arithmetic may overflow.
int64_t time_base(uint8_t choice) {
    switch (choice % 4) {
    case 0:
        return 0;
    case 1:
        return -1000;
    case 2:
        return INT64_MAX - 512;
    default:
        return INT64_MIN;
    }
}

// Mostly small sizes, with zeros, and now and then sizes large enough for
// check_problem to refuse the problem.
uint64_t decode_size(ByteReader &in) {
    const uint8_t kind = in.byte();
    switch (kind % 4) {
    case 0:
        return kind / 4 % 8 == 0 ? 0 : in.byte();
    case 1:
        return in.bits(2);
    case 2:
        return in.bits(2) << 8;
    default:
        return in.bits(3) << (kind / 4 % 40);
    }
}

struct Decoded {
    harena::Problem problem;
    std::vector<uint64_t> replay_sizes;  // each at most its buffer's size
};

Decoded decode(ByteReader &in) {
    Decoded d;
    const int64_t base = time_base(in.byte());
    const size_t n = in.below(kMaxBuffers + 1);
    for (size_t i = 0; i < n; i++) {
        harena::Buffer b;
        b.id = "b" + std::to_string(i);
        b.begin = base + in.byte();
        b.end = b.begin + 1 + in.below(64);
        b.size = decode_size(in);
        b.alignment = uint64_t(1) << in.below(13);
        const uint64_t eighths = in.below(9);
        d.replay_sizes.push_back(b.size / 8 * eighths + (eighths == 8 ? b.size % 8 : 0));
        d.problem.buffers.push_back(b);
    }
    return d;
}

bool accepted(const harena::Problem &problem) {
    try {
        harena::check_problem(problem);
        return true;
    } catch (const harena::InputError &) {
        return false;
    }
}

// The planned layout replayed for smaller sizes must still be a valid plan.
void check_replay(const Decoded &d, const harena::Plan &plan) {
    harena::Problem smaller = d.problem;
    harena::Plan replay;
    replay.offsets = harena::compact_offsets(d.problem, plan, d.replay_sizes);
    for (size_t i = 0; i < smaller.buffers.size(); i++) {
        smaller.buffers[i].size = d.replay_sizes[i];
        replay.arena_bytes = std::max(replay.arena_bytes, replay.offsets[i] + d.replay_sizes[i]);
        FUZZ_CHECK(replay.offsets[i] <= plan.offsets[i], "buffer %zu moved up in the replay: %llu > %llu", i,
                   static_cast<unsigned long long>(replay.offsets[i]),
                   static_cast<unsigned long long>(plan.offsets[i]));
    }
    const harena::Validation v = harena::validate(smaller, replay);
    FUZZ_CHECK(v.ok, "the replay for smaller sizes is invalid: %s", v.error.c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ByteReader in(data, size);
    const harena::SolverOptions options = decode_options(in.byte());
    const Decoded d = decode(in);

    if (!accepted(d.problem)) {
        bool refused = false;
        try {
            (void)harena::solve(d.problem, options);
        } catch (const harena::InputError &) {
            refused = true;
        }
        FUZZ_CHECK(refused, "solve accepted a problem that check_problem refuses");
        return 0;
    }

    const harena::Plan plan = harena::solve(d.problem, options);
    const harena::Validation v = harena::validate(d.problem, plan);
    FUZZ_CHECK(v.ok, "invalid plan (%s): %s", plan.method.c_str(), v.error.c_str());
    const uint64_t bound = harena::lower_bound(d.problem);
    FUZZ_CHECK(plan.lower_bound == bound, "the plan quotes lower bound %llu, the problem's is %llu",
               static_cast<unsigned long long>(plan.lower_bound), static_cast<unsigned long long>(bound));
    FUZZ_CHECK(plan.arena_bytes >= bound, "arena %llu below the lower bound %llu (%s)",
               static_cast<unsigned long long>(plan.arena_bytes), static_cast<unsigned long long>(bound),
               plan.method.c_str());
    check_replay(d, plan);
    return 0;
}
