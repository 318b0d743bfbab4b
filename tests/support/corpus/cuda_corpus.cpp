#include "cuda_corpus.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "corpus_auto_exposure_cuda_arena.arena.h"
#include "corpus_auto_exposure_cuda_arena.h"
#include "corpus_auto_exposure_cuda_plain.h"
#include "corpus_auto_harris_cuda_arena.arena.h"
#include "corpus_auto_harris_cuda_arena.h"
#include "corpus_auto_harris_cuda_plain.h"
#include "corpus_auto_levels_cuda_arena.arena.h"
#include "corpus_auto_levels_cuda_arena.h"
#include "corpus_auto_levels_cuda_plain.h"
#include "corpus_auto_unsharp_cuda_arena.arena.h"
#include "corpus_auto_unsharp_cuda_arena.h"
#include "corpus_auto_unsharp_cuda_plain.h"
#include "corpus_bilateral_grid_cuda_arena.arena.h"
#include "corpus_bilateral_grid_cuda_arena.h"
#include "corpus_bilateral_grid_cuda_plain.h"
#include "corpus_camera_pipe_cuda_arena.arena.h"
#include "corpus_camera_pipe_cuda_arena.h"
#include "corpus_camera_pipe_cuda_plain.h"
#include "corpus_color_grade_cuda_arena.arena.h"
#include "corpus_color_grade_cuda_arena.h"
#include "corpus_color_grade_cuda_plain.h"
#include "corpus_guided_upsample_cuda_arena.arena.h"
#include "corpus_guided_upsample_cuda_arena.h"
#include "corpus_guided_upsample_cuda_plain.h"
#include "corpus_histogram_equalize_cuda_arena.arena.h"
#include "corpus_histogram_equalize_cuda_arena.h"
#include "corpus_histogram_equalize_cuda_plain.h"
#include "corpus_iir_blur_cuda_arena.arena.h"
#include "corpus_iir_blur_cuda_arena.h"
#include "corpus_iir_blur_cuda_plain.h"
#include "corpus_interpolate_cuda_arena.arena.h"
#include "corpus_interpolate_cuda_arena.h"
#include "corpus_interpolate_cuda_plain.h"
#include "corpus_local_laplacian_cuda_arena.arena.h"
#include "corpus_local_laplacian_cuda_arena.h"
#include "corpus_local_laplacian_cuda_plain.h"
#include "corpus_mip_levels_cuda_arena.arena.h"
#include "corpus_mip_levels_cuda_arena.h"
#include "corpus_mip_levels_cuda_plain.h"
#include "corpus_nl_means_cuda_arena.arena.h"
#include "corpus_nl_means_cuda_arena.h"
#include "corpus_nl_means_cuda_plain.h"
#include "corpus_stencil_chain_cuda_arena.arena.h"
#include "corpus_stencil_chain_cuda_arena.h"
#include "corpus_stencil_chain_cuda_plain.h"
#include "corpus_yuv_planes_cuda_arena.arena.h"
#include "corpus_yuv_planes_cuda_arena.h"
#include "corpus_yuv_planes_cuda_plain.h"

namespace harena_corpus {

namespace {

template<class P>
CudaCorpusEntry cuda_entry(const char *name, bool capturable, const char *plan_json, uint64_t lower_bound,
                           int planned_buffers) {
    CudaCorpusEntry e;
    e.pipeline = entry<P>(name);
    e.pipeline.capturable = capturable;
    e.plan_json = plan_json;
    e.lower_bound = lower_bound;
    e.planned_buffers = planned_buffers;
    // The header defines ARENA_HOST_BUFFERS only where there are some.
    const char *key = "\"host_buffers_planned\": ";
    const char *host = std::strstr(plan_json, key);
    e.host_buffers = host != nullptr ? std::atoi(host + std::strlen(key)) : 0;
    return e;
}

}  // namespace

#define CUDA_CORPUS_ENTRY(gen, Driver, MACRO)                                                                      \
    cuda_entry<Driver<corpus_##gen##_cuda_plain, corpus_##gen##_cuda_arena>>(                                      \
        #gen, MACRO##_ARENA_CAPTURABLE != 0, corpus_##gen##_cuda_arena_arena_plan_json, MACRO##_ARENA_LOWER_BOUND, \
        MACRO##_ARENA_BUFFERS)

const std::vector<CudaCorpusEntry> &cuda_corpus() {
    static const std::vector<CudaCorpusEntry> entries = {
        CUDA_CORPUS_ENTRY(local_laplacian, LocalLaplacian, CORPUS_LOCAL_LAPLACIAN_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(bilateral_grid, BilateralGrid, CORPUS_BILATERAL_GRID_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(histogram_equalize, HistogramEqualize, CORPUS_HISTOGRAM_EQUALIZE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(iir_blur, IirBlur, CORPUS_IIR_BLUR_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(nl_means, NlMeans, CORPUS_NL_MEANS_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(interpolate, Interpolate, CORPUS_INTERPOLATE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(stencil_chain, StencilChain, CORPUS_STENCIL_CHAIN_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(camera_pipe, CameraPipe, CORPUS_CAMERA_PIPE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(guided_upsample, GuidedUpsample, CORPUS_GUIDED_UPSAMPLE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(auto_exposure, AutoExposure, CORPUS_AUTO_EXPOSURE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(color_grade, ColorGrade, CORPUS_COLOR_GRADE_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(auto_levels, AutoLevels, CORPUS_AUTO_LEVELS_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(yuv_planes, YuvPlanes, CORPUS_YUV_PLANES_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(mip_levels, MipLevels, CORPUS_MIP_LEVELS_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(auto_unsharp, AutoUnsharp, CORPUS_AUTO_UNSHARP_CUDA_ARENA),
        CUDA_CORPUS_ENTRY(auto_harris, AutoHarris, CORPUS_AUTO_HARRIS_CUDA_ARENA),
    };
    return entries;
}

#undef CUDA_CORPUS_ENTRY

const CudaCorpusEntry &cuda_corpus_entry(const char *name) {
    for (const CudaCorpusEntry &e : cuda_corpus()) {
        if (std::strcmp(e.pipeline.name, name) == 0) {
            return e;
        }
    }
    throw std::invalid_argument(std::string("no CUDA corpus pipeline is named ") + name);
}

const std::vector<Pipeline> &cuda_pipelines() {
    static const std::vector<Pipeline> pipelines = [] {
        std::vector<Pipeline> p;
        for (const CudaCorpusEntry &e : cuda_corpus()) {
            p.push_back(e.pipeline);
        }
        return p;
    }();
    return pipelines;
}

}  // namespace harena_corpus
