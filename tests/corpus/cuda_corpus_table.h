#pragma once
// The corpus built for CUDA: each generator's plain and arena builds, named
// for the GPU tests.
#include "corpus_pipelines.h"

#include "corpus_auto_exposure_cuda_arena.arena.h"
#include "corpus_auto_exposure_cuda_arena.h"
#include "corpus_auto_exposure_cuda_plain.h"
#include "corpus_auto_levels_cuda_arena.arena.h"
#include "corpus_auto_levels_cuda_arena.h"
#include "corpus_auto_levels_cuda_plain.h"
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
#include "corpus_nl_means_cuda_arena.arena.h"
#include "corpus_nl_means_cuda_arena.h"
#include "corpus_nl_means_cuda_plain.h"
#include "corpus_stencil_chain_cuda_arena.arena.h"
#include "corpus_stencil_chain_cuda_arena.h"
#include "corpus_stencil_chain_cuda_plain.h"

namespace harena_corpus {

template<class P>
Pipeline cuda_entry(const char *name, bool capturable) {
    Pipeline p = entry<P>(name);
    p.capturable = capturable;
    return p;
}

inline const Pipeline kCudaPipelines[] = {
    cuda_entry<LocalLaplacian<corpus_local_laplacian_cuda_plain, corpus_local_laplacian_cuda_arena>>("local_laplacian", CORPUS_LOCAL_LAPLACIAN_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<BilateralGrid<corpus_bilateral_grid_cuda_plain, corpus_bilateral_grid_cuda_arena>>("bilateral_grid", CORPUS_BILATERAL_GRID_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<HistogramEqualize<corpus_histogram_equalize_cuda_plain, corpus_histogram_equalize_cuda_arena>>("histogram_equalize", CORPUS_HISTOGRAM_EQUALIZE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<IirBlur<corpus_iir_blur_cuda_plain, corpus_iir_blur_cuda_arena>>("iir_blur", CORPUS_IIR_BLUR_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<NlMeans<corpus_nl_means_cuda_plain, corpus_nl_means_cuda_arena>>("nl_means", CORPUS_NL_MEANS_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<Interpolate<corpus_interpolate_cuda_plain, corpus_interpolate_cuda_arena>>("interpolate", CORPUS_INTERPOLATE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<StencilChain<corpus_stencil_chain_cuda_plain, corpus_stencil_chain_cuda_arena>>("stencil_chain", CORPUS_STENCIL_CHAIN_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<CameraPipe<corpus_camera_pipe_cuda_plain, corpus_camera_pipe_cuda_arena>>("camera_pipe", CORPUS_CAMERA_PIPE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<GuidedUpsample<corpus_guided_upsample_cuda_plain, corpus_guided_upsample_cuda_arena>>("guided_upsample", CORPUS_GUIDED_UPSAMPLE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<AutoExposure<corpus_auto_exposure_cuda_plain, corpus_auto_exposure_cuda_arena>>("auto_exposure", CORPUS_AUTO_EXPOSURE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<ColorGrade<corpus_color_grade_cuda_plain, corpus_color_grade_cuda_arena>>("color_grade", CORPUS_COLOR_GRADE_CUDA_ARENA_ARENA_CAPTURABLE != 0),
    cuda_entry<AutoLevels<corpus_auto_levels_cuda_plain, corpus_auto_levels_cuda_arena>>("auto_levels", CORPUS_AUTO_LEVELS_CUDA_ARENA_ARENA_CAPTURABLE != 0),
};

}  // namespace harena_corpus
