// The corpus on the host, driven as RunGen drives a pipeline: the same host
// buffers for every call, new input values before each. Each generator's
// arena build runs in a host arena sized by asking the pipeline
// (harena::measure) before every call; on every call its outputs must hold
// the same bits as the plain build's, run the same way on its own buffers,
// the arena's frames must all be popped, and the runtime must report nothing.
#include "corpus_pipelines.h"

#include "corpus_auto_exposure_arena.h"
#include "corpus_auto_exposure_plain.h"
#include "corpus_auto_harris_arena.h"
#include "corpus_auto_harris_plain.h"
#include "corpus_auto_levels_arena.h"
#include "corpus_auto_levels_plain.h"
#include "corpus_auto_unsharp_arena.h"
#include "corpus_auto_unsharp_plain.h"
#include "corpus_bilateral_grid_arena.h"
#include "corpus_bilateral_grid_plain.h"
#include "corpus_camera_pipe_arena.h"
#include "corpus_camera_pipe_plain.h"
#include "corpus_color_grade_arena.h"
#include "corpus_color_grade_plain.h"
#include "corpus_guided_upsample_arena.h"
#include "corpus_guided_upsample_plain.h"
#include "corpus_histogram_equalize_arena.h"
#include "corpus_histogram_equalize_plain.h"
#include "corpus_iir_blur_arena.h"
#include "corpus_iir_blur_plain.h"
#include "corpus_interpolate_arena.h"
#include "corpus_interpolate_plain.h"
#include "corpus_local_laplacian_arena.h"
#include "corpus_local_laplacian_plain.h"
#include "corpus_mip_levels_arena.h"
#include "corpus_mip_levels_plain.h"
#include "corpus_nl_means_arena.h"
#include "corpus_nl_means_plain.h"
#include "corpus_stencil_chain_arena.h"
#include "corpus_stencil_chain_plain.h"
#include "corpus_yuv_planes_arena.h"
#include "corpus_yuv_planes_plain.h"

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

const Pipeline kPipelines[] = {
    entry<LocalLaplacian<corpus_local_laplacian_plain, corpus_local_laplacian_arena>>("local_laplacian"),
    entry<BilateralGrid<corpus_bilateral_grid_plain, corpus_bilateral_grid_arena>>("bilateral_grid"),
    entry<HistogramEqualize<corpus_histogram_equalize_plain, corpus_histogram_equalize_arena>>("histogram_equalize"),
    entry<IirBlur<corpus_iir_blur_plain, corpus_iir_blur_arena>>("iir_blur"),
    entry<NlMeans<corpus_nl_means_plain, corpus_nl_means_arena>>("nl_means"),
    entry<Interpolate<corpus_interpolate_plain, corpus_interpolate_arena>>("interpolate"),
    entry<StencilChain<corpus_stencil_chain_plain, corpus_stencil_chain_arena>>("stencil_chain"),
    entry<CameraPipe<corpus_camera_pipe_plain, corpus_camera_pipe_arena>>("camera_pipe"),
    entry<GuidedUpsample<corpus_guided_upsample_plain, corpus_guided_upsample_arena>>("guided_upsample"),
    entry<AutoExposure<corpus_auto_exposure_plain, corpus_auto_exposure_arena>>("auto_exposure"),
    entry<ColorGrade<corpus_color_grade_plain, corpus_color_grade_arena>>("color_grade"),
    entry<AutoLevels<corpus_auto_levels_plain, corpus_auto_levels_arena>>("auto_levels"),
    entry<YuvPlanes<corpus_yuv_planes_plain, corpus_yuv_planes_arena>>("yuv_planes"),
    entry<MipLevels<corpus_mip_levels_plain, corpus_mip_levels_arena>>("mip_levels"),
    entry<AutoUnsharp<corpus_auto_unsharp_plain, corpus_auto_unsharp_arena>>("auto_unsharp"),
    entry<AutoHarris<corpus_auto_harris_plain, corpus_auto_harris_arena>>("auto_harris"),
};

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
                         ::testing::Combine(::testing::ValuesIn(kPipelines), ::testing::ValuesIn(kSizes)),
                         [](const auto &info) {
                             return std::string(std::get<0>(info.param).name) + "_" + std::get<1>(info.param).name;
                         });

}  // namespace
