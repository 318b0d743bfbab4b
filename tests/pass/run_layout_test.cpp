// The two replays of a plan for one call's sizes must agree: the pass's
// symbolic one (run_layout.h), which planned pipelines evaluate where their
// frame opens, and the solver's (solver/compaction.h), on the same plans and
// sizes. Plans of seeded random problems; each call's sizes at random below,
// at and above the planned ones, zero included.
#include "halide_compat.h"
#include "ir_queries.h"
#include "rewrite/run_layout.h"
#include "solver/compaction.h"
#include "solver/validator.h"
#include "solver_instances/instances.h"

#include <gtest/gtest.h>

#include <random>

using namespace Halide;
using namespace Halide::Internal;

namespace {

constexpr uint64_t kAlignment = 256;

struct Evaluated {
    std::vector<uint64_t> offsets;
    uint64_t needed = 0;
};

// The layout's lets folded in order for `sizes` (the candidates' per-call
// bytes are the variables size.<i>).
Evaluated evaluate(const harena::RunLayout &layout, const std::vector<uint64_t> &sizes, uint64_t band) {
    std::map<std::string, Expr> known;
    for (size_t i = 0; i < sizes.size(); i++) {
        known["size." + std::to_string(i)] = make_const(Int(64), (int64_t)sizes[i]);
    }
    auto fold = [&](const Expr &e) {
        Expr v = simplify(substitute(known, harena_test::answer_guard_bytes(e, band)));
        const std::optional<uint64_t> u = harena::const_uint(v);
        if (!u) {
            throw std::runtime_error("does not fold to a constant");
        }
        return *u;
    };
    for (const auto &[name, value] : layout.lets) {
        known[name] = make_const(UInt(64), fold(value));
    }
    Evaluated out;
    for (const Expr &offset : layout.offsets) {
        out.offsets.push_back(fold(offset));
    }
    out.needed = fold(layout.needed);
    return out;
}

struct Case {
    harena::Problem problem;
    harena::Plan plan;
    std::vector<harena::Candidate> candidates;
    std::vector<const harena::Candidate *> planned;
};

Case make_case(size_t n, uint64_t seed) {
    Case c;
    c.problem = harena::instances::uniform_random(n, seed);
    for (harena::Buffer &b : c.problem.buffers) {
        b.alignment = kAlignment;  // one alignment for every buffer, as the pass plans
    }
    c.plan = harena::solve(c.problem);
    c.candidates.resize(n);
    for (size_t i = 0; i < n; i++) {
        c.candidates[i].per_call = Variable::make(Int(64), "size." + std::to_string(i));
        c.planned.push_back(&c.candidates[i]);
    }
    return c;
}

// Below, at and above the planned size; now and then none at all.
std::vector<uint64_t> call_sizes(const harena::Problem &problem, std::mt19937_64 &rng) {
    std::vector<uint64_t> sizes;
    for (const harena::Buffer &b : problem.buffers) {
        switch (rng() % 4) {
        case 0:
            sizes.push_back(rng() % 8 == 0 ? 0 : rng() % b.size);
            break;
        case 1:
            sizes.push_back(b.size);
            break;
        default:
            sizes.push_back(rng() % (2 * b.size));
        }
    }
    return sizes;
}

// What the pass does to each size before either replay: at least one
// alignment unit (run_layout.cpp), grown by the band in guard mode.
std::vector<uint64_t> replayed_sizes(const std::vector<uint64_t> &sizes, uint64_t band) {
    std::vector<uint64_t> out;
    for (uint64_t s : sizes) {
        out.push_back(std::max(s, kAlignment) + band);
    }
    return out;
}

class RunLayoutMatchesCompaction : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RunLayoutMatchesCompaction, OnRandomPlansAndSizes) {
    const uint64_t band = GetParam();
    for (uint64_t seed = 1; seed <= 12; seed++) {
        Case c = make_case(40, seed);
        ASSERT_TRUE(harena::validate(c.problem, c.plan).ok);
        const harena::RunLayout layout = harena::run_layout(c.problem, c.plan, c.planned, kAlignment);
        std::mt19937_64 rng(seed);
        for (int call = 0; call < 5; call++) {
            const std::vector<uint64_t> sizes = call_sizes(c.problem, rng);
            const Evaluated got = evaluate(layout, sizes, band);
            // In guard mode the frame starts with a band and every slice is
            // followed by one: the replay with each size grown by the band,
            // one band up.
            const std::vector<uint64_t> grown = replayed_sizes(sizes, band);
            const std::vector<uint64_t> want = harena::compact_offsets(c.problem, c.plan, grown);
            uint64_t top = 0;
            for (size_t i = 0; i < sizes.size(); i++) {
                EXPECT_EQ(got.offsets[i], want[i] + band) << "seed " << seed << ", call " << call << ", buffer " << i;
                top = std::max(top, want[i] + band + grown[i]);
            }
            EXPECT_EQ(got.needed, top) << "seed " << seed << ", call " << call;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Band, RunLayoutMatchesCompaction, ::testing::Values(0, 512),
                         [](const auto &info) { return info.param ? "GuardMode" : "NoGuard"; });

}  // namespace
