// The corpus on the host, driven as RunGen drives a pipeline: the same host
// buffers for every call, new input values before each. Each generator's
// arena build runs in a host arena sized by asking the pipeline
// (harena::measure) before every call; on every call its outputs must hold
// the same bits as the plain build's, run the same way on its own buffers,
// the arena's frames must all be popped, and the runtime must report nothing.
#include "corpus_pipelines.h"

#include "host_corpus.h"

#include "harena/arena.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tuple>

using namespace harena_corpus;

namespace {

// Host runs shrink every spatial extent by this one factor (so 1/8, 1/4 and
// 1/2 of the estimates' extents, still in the ratios of kSizes): the whole
// suite then takes about fifteen seconds on two cores. The GPU tests run the
// sizes themselves.
constexpr double kHostScale = 1.0 / 4;

std::string joined(const std::vector<std::string> &messages) {
    std::string out;
    for (const std::string &m : messages) {
        out += "\n  " + m;
    }
    return out;
}

class HostCorpus : public ::testing::TestWithParam<std::tuple<Pipeline, Size>> {
protected:
    void SetUp() override {
        ErrorLog::install();
        (void)ErrorLog::take();
    }
};

TEST_P(HostCorpus, ArenaBuildMatchesPlainOnEveryCall) {
    const Pipeline &p = std::get<0>(GetParam());
    const double scale = std::get<1>(GetParam()).scale * kHostScale;
    Workload plain = p.make(scale), planned = p.make(scale);
    harena::Options options;
    options.debug = true;  // reports allocations still alive when a frame pops
    std::unique_ptr<harena::Arena> arena;
    std::vector<Buffer<>> previous;
    for (int call = 0; call < kCalls; call++) {
        p.write(plain, call);
        p.write(planned, call);
        ASSERT_EQ(p.plain(plain), 0) << "call " << call << joined(ErrorLog::take());
        // New inputs give new outputs: a call that did nothing cannot pass.
        for (size_t i = 0; i < previous.size(); i++) {
            EXPECT_NE(difference(previous[i], plain.outputs[i]), "")
                << "call " << call << ": output " << i << " unchanged";
        }
        previous.clear();
        for (Buffer<> &out : plain.outputs) {
            previous.push_back(out.copy());
        }

        // A driver that does not know the sizes in advance asks, and grows
        // its arena when a call needs more.
        const uint64_t bytes = harena::measure([&](void *uc) { return p.planned(uc, planned); });
        if (!arena || arena->capacity() < bytes) {
            arena = std::make_unique<harena::Arena>(harena::Arena::host(std::max<uint64_t>(bytes, 256), options));
        }
        ASSERT_EQ(p.planned(arena->get(), planned), 0) << "call " << call << joined(ErrorLog::take());
        ASSERT_EQ(read_back(plain), 0);
        ASSERT_EQ(read_back(planned), 0);

        EXPECT_EQ(difference(plain, planned), "") << "call " << call;
        const harena::Stats stats = arena->stats();
        EXPECT_EQ(stats.frame_depth, 0u) << "call " << call;
        EXPECT_EQ(stats.bytes_in_use, 0u) << "call " << call;
        EXPECT_EQ(joined(ErrorLog::take()), "") << "call " << call << ": the runtime reported errors";
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostCorpus,
                         ::testing::Combine(::testing::ValuesIn(host_pipelines()), ::testing::ValuesIn(kSizes)),
                         [](const auto &info) {
                             return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
