#pragma once
// Every single-output test generator built for host-cuda (see generated_pipelines.h),
// those that declare maxima and those that declare estimates only.
#include "generated_pipelines.h"

#include "e2e_chain_cuda_plain.h"
#include "e2e_chain_cuda_arena.h"
#include "e2e_chain_cuda_arena.arena.h"
#include "e2e_pyramid_cuda_plain.h"
#include "e2e_pyramid_cuda_arena.h"
#include "e2e_pyramid_cuda_arena.arena.h"
#include "e2e_tuple_stage_cuda_plain.h"
#include "e2e_tuple_stage_cuda_arena.h"
#include "e2e_tuple_stage_cuda_arena.arena.h"
#include "e2e_reduction_cuda_plain.h"
#include "e2e_reduction_cuda_arena.h"
#include "e2e_reduction_cuda_arena.arena.h"
#include "e2e_specialized_cuda_plain.h"
#include "e2e_specialized_cuda_arena.h"
#include "e2e_specialized_cuda_arena.arena.h"
#include "e2e_serial_compute_at_cuda_plain.h"
#include "e2e_serial_compute_at_cuda_arena.h"
#include "e2e_serial_compute_at_cuda_arena.arena.h"
#include "e2e_storage_folding_cuda_plain.h"
#include "e2e_storage_folding_cuda_arena.h"
#include "e2e_storage_folding_cuda_arena.arena.h"
#include "e2e_aligned_storage_cuda_plain.h"
#include "e2e_aligned_storage_cuda_arena.h"
#include "e2e_aligned_storage_cuda_arena.arena.h"
#include "e2e_extern_stage_cuda_plain.h"
#include "e2e_extern_stage_cuda_arena.h"
#include "e2e_extern_stage_cuda_arena.arena.h"
#include "e2e_param_sized_cuda_plain.h"
#include "e2e_param_sized_cuda_arena.h"
#include "e2e_param_sized_cuda_arena.arena.h"
#include "e2e_mixed_types_cuda_plain.h"
#include "e2e_mixed_types_cuda_arena.h"
#include "e2e_mixed_types_cuda_arena.arena.h"
#include "e2e_host_and_device_cuda_plain.h"
#include "e2e_host_and_device_cuda_arena.h"
#include "e2e_host_and_device_cuda_arena.arena.h"
#include "e2e_heap_in_kernel_cuda_plain.h"
#include "e2e_heap_in_kernel_cuda_arena.h"
#include "e2e_heap_in_kernel_cuda_arena.arena.h"
#include "e2e_parallel_strips_cuda_plain.h"
#include "e2e_parallel_strips_cuda_arena.h"
#include "e2e_parallel_strips_cuda_arena.arena.h"
#include "e2e_level_pyramid_cuda_plain.h"
#include "e2e_level_pyramid_cuda_arena.h"
#include "e2e_level_pyramid_cuda_arena.arena.h"
#include "e2e_follow_input_cuda_plain.h"
#include "e2e_follow_input_cuda_arena.h"
#include "e2e_follow_input_cuda_arena.arena.h"
#include "e2e_thumbnail_cuda_plain.h"
#include "e2e_thumbnail_cuda_arena.h"
#include "e2e_thumbnail_cuda_arena.arena.h"

const harena_test::GeneratedPipeline kCudaPipelines[] = {
    {"chain", e2e_chain_cuda_plain, e2e_chain_cuda_arena, E2E_CHAIN_CUDA_ARENA_ARENA_BYTES, E2E_CHAIN_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"pyramid", e2e_pyramid_cuda_plain, e2e_pyramid_cuda_arena, E2E_PYRAMID_CUDA_ARENA_ARENA_BYTES, E2E_PYRAMID_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"tuple_stage", e2e_tuple_stage_cuda_plain, e2e_tuple_stage_cuda_arena, E2E_TUPLE_STAGE_CUDA_ARENA_ARENA_BYTES, E2E_TUPLE_STAGE_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"reduction", e2e_reduction_cuda_plain, e2e_reduction_cuda_arena, E2E_REDUCTION_CUDA_ARENA_ARENA_BYTES, E2E_REDUCTION_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"specialized", e2e_specialized_cuda_plain, e2e_specialized_cuda_arena, E2E_SPECIALIZED_CUDA_ARENA_ARENA_BYTES, E2E_SPECIALIZED_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"serial_compute_at", e2e_serial_compute_at_cuda_plain, e2e_serial_compute_at_cuda_arena, E2E_SERIAL_COMPUTE_AT_CUDA_ARENA_ARENA_BYTES, E2E_SERIAL_COMPUTE_AT_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"storage_folding", e2e_storage_folding_cuda_plain, e2e_storage_folding_cuda_arena, E2E_STORAGE_FOLDING_CUDA_ARENA_ARENA_BYTES, E2E_STORAGE_FOLDING_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"aligned_storage", e2e_aligned_storage_cuda_plain, e2e_aligned_storage_cuda_arena, E2E_ALIGNED_STORAGE_CUDA_ARENA_ARENA_BYTES, E2E_ALIGNED_STORAGE_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"extern_stage", e2e_extern_stage_cuda_plain, e2e_extern_stage_cuda_arena, E2E_EXTERN_STAGE_CUDA_ARENA_ARENA_BYTES, E2E_EXTERN_STAGE_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"param_sized", e2e_param_sized_cuda_plain, e2e_param_sized_cuda_arena, E2E_PARAM_SIZED_CUDA_ARENA_ARENA_BYTES, E2E_PARAM_SIZED_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"mixed_types", e2e_mixed_types_cuda_plain, e2e_mixed_types_cuda_arena, E2E_MIXED_TYPES_CUDA_ARENA_ARENA_BYTES, E2E_MIXED_TYPES_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"host_and_device", e2e_host_and_device_cuda_plain, e2e_host_and_device_cuda_arena, E2E_HOST_AND_DEVICE_CUDA_ARENA_ARENA_BYTES, E2E_HOST_AND_DEVICE_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"heap_in_kernel", e2e_heap_in_kernel_cuda_plain, e2e_heap_in_kernel_cuda_arena, E2E_HEAP_IN_KERNEL_CUDA_ARENA_ARENA_BYTES, E2E_HEAP_IN_KERNEL_CUDA_ARENA_ARENA_CAPTURABLE != 0},
    {"parallel_strips", e2e_parallel_strips_cuda_plain, e2e_parallel_strips_cuda_arena, E2E_PARALLEL_STRIPS_CUDA_ARENA_ARENA_BYTES, E2E_PARALLEL_STRIPS_CUDA_ARENA_ARENA_CAPTURABLE != 0, true},
};

static_assert(E2E_LEVEL_PYRAMID_CUDA_ARENA_ARENA_BOUNDED == 0 && E2E_FOLLOW_INPUT_CUDA_ARENA_ARENA_BOUNDED == 0 &&
              E2E_THUMBNAIL_CUDA_ARENA_ARENA_BOUNDED == 0);

const harena_test::EstimatedPipeline kCudaEstimatedPipelines[] = {
    {"level_pyramid", e2e_level_pyramid_cuda_plain, e2e_level_pyramid_cuda_arena,
     E2E_LEVEL_PYRAMID_CUDA_ARENA_ARENA_BYTES_AT_ESTIMATES, 256, 4},
    {"follow_input", e2e_follow_input_cuda_plain, e2e_follow_input_cuda_arena,
     E2E_FOLLOW_INPUT_CUDA_ARENA_ARENA_BYTES_AT_ESTIMATES, 256, 4},
    {"thumbnail", e2e_thumbnail_cuda_plain, e2e_thumbnail_cuda_arena, E2E_THUMBNAIL_CUDA_ARENA_ARENA_BYTES_AT_ESTIMATES,
     256, 4},
};
