#include "host_corpus.h"

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

namespace harena_corpus {

const std::vector<Pipeline> &host_pipelines() {
    static const std::vector<Pipeline> pipelines = {
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
    return pipelines;
}

}  // namespace harena_corpus
