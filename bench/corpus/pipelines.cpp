#include "pipelines.h"

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

#include <cstdlib>
#include <cstring>
#include <string>

namespace corpus_bench {
namespace {

// The number after `"key": ` in the plan JSON, or 0.
uint64_t json_number(const char *json, const char *key) {
    const std::string quoted = std::string("\"") + key + "\": ";
    const char *at = std::strstr(json, quoted.c_str());
    return at != nullptr ? std::strtoull(at + quoted.size(), nullptr, 10) : 0;
}

// The header names the plan's bytes ARENA_BYTES or ARENA_BYTES_AT_ESTIMATES
// depending on whether the pipeline is bounded, so that code expecting a
// worst case does not compile against an unbounded one; the JSON has both
// forms under one key each, which one table entry can read.
PlanReport report(const char *json, uint64_t lower_bound, int planned_buffers) {
    PlanReport r;
    r.bounded = std::strstr(json, "\"bounded\": true") != nullptr;
    r.bytes = json_number(json, r.bounded ? "arena_bytes" : "arena_bytes_at_estimates");
    r.lower_bound = lower_bound;
    r.planned_buffers = planned_buffers;
    // One buffer per line; names and reasons are JSON strings, whose quotes
    // are escaped, so these key patterns only match the keys themselves.
    for (const char *line = std::strstr(json, "{\"name\": "); line != nullptr;
         line = std::strstr(line + 1, "{\"name\": ")) {
        const char *end = std::strchr(line, '\n');
        const std::string entry = end != nullptr ? std::string(line, end) : std::string(line);
        if (entry.find("\"kind\": \"device") != std::string::npos) {
            r.device_intermediates++;
            r.planned_device += entry.find("\"planned\": true") != std::string::npos;
        }
    }
    return r;
}

}  // namespace

#define CORPUS_ENTRY(gen, Driver, MACRO)                                                                         \
    CorpusPipeline {                                                                                             \
        harena_corpus::entry<harena_corpus::Driver<corpus_##gen##_cuda_plain, corpus_##gen##_cuda_arena>>(#gen), \
            report(corpus_##gen##_cuda_arena_arena_plan_json, MACRO##_ARENA_LOWER_BOUND, MACRO##_ARENA_BUFFERS)  \
    }

const std::vector<CorpusPipeline> &corpus() {
    static const std::vector<CorpusPipeline> pipelines = {
        CORPUS_ENTRY(local_laplacian, LocalLaplacian, CORPUS_LOCAL_LAPLACIAN_CUDA_ARENA),
        CORPUS_ENTRY(bilateral_grid, BilateralGrid, CORPUS_BILATERAL_GRID_CUDA_ARENA),
        CORPUS_ENTRY(histogram_equalize, HistogramEqualize, CORPUS_HISTOGRAM_EQUALIZE_CUDA_ARENA),
        CORPUS_ENTRY(iir_blur, IirBlur, CORPUS_IIR_BLUR_CUDA_ARENA),
        CORPUS_ENTRY(nl_means, NlMeans, CORPUS_NL_MEANS_CUDA_ARENA),
        CORPUS_ENTRY(interpolate, Interpolate, CORPUS_INTERPOLATE_CUDA_ARENA),
        CORPUS_ENTRY(stencil_chain, StencilChain, CORPUS_STENCIL_CHAIN_CUDA_ARENA),
        CORPUS_ENTRY(camera_pipe, CameraPipe, CORPUS_CAMERA_PIPE_CUDA_ARENA),
        CORPUS_ENTRY(guided_upsample, GuidedUpsample, CORPUS_GUIDED_UPSAMPLE_CUDA_ARENA),
        CORPUS_ENTRY(auto_exposure, AutoExposure, CORPUS_AUTO_EXPOSURE_CUDA_ARENA),
        CORPUS_ENTRY(color_grade, ColorGrade, CORPUS_COLOR_GRADE_CUDA_ARENA),
        CORPUS_ENTRY(auto_levels, AutoLevels, CORPUS_AUTO_LEVELS_CUDA_ARENA),
    };
    return pipelines;
}

}  // namespace corpus_bench
