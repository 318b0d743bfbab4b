#pragma once
// Every single-output test generator built for the host (see generated_pipelines.h),
// those that declare maxima and those that declare estimates only.
#include "generated_pipelines.h"

#include "e2e_chain_plain.h"
#include "e2e_chain_arena.h"
#include "e2e_chain_arena.arena.h"
#include "e2e_pyramid_plain.h"
#include "e2e_pyramid_arena.h"
#include "e2e_pyramid_arena.arena.h"
#include "e2e_tuple_stage_plain.h"
#include "e2e_tuple_stage_arena.h"
#include "e2e_tuple_stage_arena.arena.h"
#include "e2e_reduction_plain.h"
#include "e2e_reduction_arena.h"
#include "e2e_reduction_arena.arena.h"
#include "e2e_specialized_plain.h"
#include "e2e_specialized_arena.h"
#include "e2e_specialized_arena.arena.h"
#include "e2e_serial_compute_at_plain.h"
#include "e2e_serial_compute_at_arena.h"
#include "e2e_serial_compute_at_arena.arena.h"
#include "e2e_storage_folding_plain.h"
#include "e2e_storage_folding_arena.h"
#include "e2e_storage_folding_arena.arena.h"
#include "e2e_aligned_storage_plain.h"
#include "e2e_aligned_storage_arena.h"
#include "e2e_aligned_storage_arena.arena.h"
#include "e2e_extern_stage_plain.h"
#include "e2e_extern_stage_arena.h"
#include "e2e_extern_stage_arena.arena.h"
#include "e2e_param_sized_plain.h"
#include "e2e_param_sized_arena.h"
#include "e2e_param_sized_arena.arena.h"
#include "e2e_mixed_types_plain.h"
#include "e2e_mixed_types_arena.h"
#include "e2e_mixed_types_arena.arena.h"
#include "e2e_host_and_device_plain.h"
#include "e2e_host_and_device_arena.h"
#include "e2e_host_and_device_arena.arena.h"
#include "e2e_heap_in_kernel_plain.h"
#include "e2e_heap_in_kernel_arena.h"
#include "e2e_heap_in_kernel_arena.arena.h"
#include "e2e_parallel_strips_plain.h"
#include "e2e_parallel_strips_arena.h"
#include "e2e_parallel_strips_arena.arena.h"
#include "e2e_level_pyramid_plain.h"
#include "e2e_level_pyramid_arena.h"
#include "e2e_level_pyramid_arena.arena.h"
#include "e2e_follow_input_plain.h"
#include "e2e_follow_input_arena.h"
#include "e2e_follow_input_arena.arena.h"
#include "e2e_thumbnail_plain.h"
#include "e2e_thumbnail_arena.h"
#include "e2e_thumbnail_arena.arena.h"

const harena_test::GeneratedPipeline kHostPipelines[] = {
    {"chain", e2e_chain_plain, e2e_chain_arena, E2E_CHAIN_ARENA_ARENA_BYTES},
    {"pyramid", e2e_pyramid_plain, e2e_pyramid_arena, E2E_PYRAMID_ARENA_ARENA_BYTES},
    {"tuple_stage", e2e_tuple_stage_plain, e2e_tuple_stage_arena, E2E_TUPLE_STAGE_ARENA_ARENA_BYTES},
    {"reduction", e2e_reduction_plain, e2e_reduction_arena, E2E_REDUCTION_ARENA_ARENA_BYTES},
    {"specialized", e2e_specialized_plain, e2e_specialized_arena, E2E_SPECIALIZED_ARENA_ARENA_BYTES},
    {"serial_compute_at", e2e_serial_compute_at_plain, e2e_serial_compute_at_arena, E2E_SERIAL_COMPUTE_AT_ARENA_ARENA_BYTES},
    {"storage_folding", e2e_storage_folding_plain, e2e_storage_folding_arena, E2E_STORAGE_FOLDING_ARENA_ARENA_BYTES},
    {"aligned_storage", e2e_aligned_storage_plain, e2e_aligned_storage_arena, E2E_ALIGNED_STORAGE_ARENA_ARENA_BYTES},
    {"extern_stage", e2e_extern_stage_plain, e2e_extern_stage_arena, E2E_EXTERN_STAGE_ARENA_ARENA_BYTES},
    {"param_sized", e2e_param_sized_plain, e2e_param_sized_arena, E2E_PARAM_SIZED_ARENA_ARENA_BYTES},
    {"mixed_types", e2e_mixed_types_plain, e2e_mixed_types_arena, E2E_MIXED_TYPES_ARENA_ARENA_BYTES},
    {"host_and_device", e2e_host_and_device_plain, e2e_host_and_device_arena, E2E_HOST_AND_DEVICE_ARENA_ARENA_BYTES},
    {"heap_in_kernel", e2e_heap_in_kernel_plain, e2e_heap_in_kernel_arena, E2E_HEAP_IN_KERNEL_ARENA_ARENA_BYTES},
    {"parallel_strips", e2e_parallel_strips_plain, e2e_parallel_strips_arena, E2E_PARALLEL_STRIPS_ARENA_ARENA_BYTES},
};

// Estimates only: no worst case, so the header gives none.
static_assert(E2E_LEVEL_PYRAMID_ARENA_ARENA_BOUNDED == 0 && E2E_FOLLOW_INPUT_ARENA_ARENA_BOUNDED == 0 &&
              E2E_THUMBNAIL_ARENA_ARENA_BOUNDED == 0);
#if defined(E2E_LEVEL_PYRAMID_ARENA_ARENA_BYTES) || defined(E2E_FOLLOW_INPUT_ARENA_ARENA_BYTES) || \
    defined(E2E_THUMBNAIL_ARENA_ARENA_BYTES)
#error "a pipeline without a worst case must not define <NAME>_ARENA_BYTES"
#endif

// Every one estimates 256 x 256 buffers; level_pyramid 4 levels, follow_input
// and thumbnail k = 4.
const harena_test::EstimatedPipeline kHostEstimatedPipelines[] = {
    {"level_pyramid", e2e_level_pyramid_plain, e2e_level_pyramid_arena, E2E_LEVEL_PYRAMID_ARENA_ARENA_BYTES_AT_ESTIMATES,
     256, 4},
    {"follow_input", e2e_follow_input_plain, e2e_follow_input_arena, E2E_FOLLOW_INPUT_ARENA_ARENA_BYTES_AT_ESTIMATES,
     256, 4},
    {"thumbnail", e2e_thumbnail_plain, e2e_thumbnail_arena, E2E_THUMBNAIL_ARENA_ARENA_BYTES_AT_ESTIMATES, 256, 4},
};
