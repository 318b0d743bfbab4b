#pragma once
// The corpus built for CUDA: each generator's plain and arena builds, named
// for the GPU tests.
#include "corpus_pipelines.h"

#include "corpus_auto_exposure_cuda_arena.h"
#include "corpus_auto_exposure_cuda_plain.h"
#include "corpus_bilateral_grid_cuda_arena.h"
#include "corpus_bilateral_grid_cuda_plain.h"
#include "corpus_camera_pipe_cuda_arena.h"
#include "corpus_camera_pipe_cuda_plain.h"
#include "corpus_guided_upsample_cuda_arena.h"
#include "corpus_guided_upsample_cuda_plain.h"
#include "corpus_histogram_equalize_cuda_arena.h"
#include "corpus_histogram_equalize_cuda_plain.h"
#include "corpus_iir_blur_cuda_arena.h"
#include "corpus_iir_blur_cuda_plain.h"
#include "corpus_interpolate_cuda_arena.h"
#include "corpus_interpolate_cuda_plain.h"
#include "corpus_local_laplacian_cuda_arena.h"
#include "corpus_local_laplacian_cuda_plain.h"
#include "corpus_nl_means_cuda_arena.h"
#include "corpus_nl_means_cuda_plain.h"
#include "corpus_stencil_chain_cuda_arena.h"
#include "corpus_stencil_chain_cuda_plain.h"

namespace harena_corpus {

inline const Pipeline kCudaPipelines[] = {
    entry<LocalLaplacian<corpus_local_laplacian_cuda_plain, corpus_local_laplacian_cuda_arena>>("local_laplacian"),
    entry<BilateralGrid<corpus_bilateral_grid_cuda_plain, corpus_bilateral_grid_cuda_arena>>("bilateral_grid"),
    entry<HistogramEqualize<corpus_histogram_equalize_cuda_plain, corpus_histogram_equalize_cuda_arena>>(
        "histogram_equalize"),
    entry<IirBlur<corpus_iir_blur_cuda_plain, corpus_iir_blur_cuda_arena>>("iir_blur"),
    entry<NlMeans<corpus_nl_means_cuda_plain, corpus_nl_means_cuda_arena>>("nl_means"),
    entry<Interpolate<corpus_interpolate_cuda_plain, corpus_interpolate_cuda_arena>>("interpolate"),
    entry<StencilChain<corpus_stencil_chain_cuda_plain, corpus_stencil_chain_cuda_arena>>("stencil_chain"),
    entry<CameraPipe<corpus_camera_pipe_cuda_plain, corpus_camera_pipe_cuda_arena>>("camera_pipe"),
    entry<GuidedUpsample<corpus_guided_upsample_cuda_plain, corpus_guided_upsample_cuda_arena>>("guided_upsample"),
    entry<AutoExposure<corpus_auto_exposure_cuda_plain, corpus_auto_exposure_cuda_arena>>("auto_exposure"),
};

}  // namespace harena_corpus
