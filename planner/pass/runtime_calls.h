#pragma once
// The one place the pass names the runtime: each entry point of
// harena/pipeline_abi.h as the Halide call the generated code makes, typed
// from its C declaration there. The names of Halide's own runtime functions
// the pass looks for are in types.h (halide_names).
#include "types.h"

#include <cstdint>
#include <string>

namespace harena {

namespace runtime_calls {

// The pipeline's user_context (a harena_arena *), which every entry point
// takes first: none is in Halide's list of runtime functions that receive it
// implicitly.
Halide::Expr user_context();

// harena_pipeline_enter: opens the call's frame of `bytes`. `traits` from
// enum harena_pipeline_traits; `alignment` is the plan's.
Halide::Expr pipeline_enter(const std::string &pipeline, const Halide::Expr &device_interface,
                            const Halide::Expr &bytes, uint64_t worst_case_bytes, uint32_t traits, uint64_t alignment);
// harena_pipeline_declare: a pipeline that plans nothing declares `traits`.
Halide::Expr pipeline_declare(uint32_t traits);
// harena_pipeline_base: the frame's address (UInt(64)).
Halide::Expr pipeline_base();
// Registers harena_pipeline_exit_as_destructor for the frame at `base`.
Halide::Expr register_pipeline_exit(const Halide::Expr &base);
// harena_pipeline_guard_bytes: the band of the guard-band layout (UInt(64)).
Halide::Expr guard_bytes();
Halide::Expr nvtx_attached();
// A struct harena_slice_table for one call, on the pipeline's stack, with
// the frame's constant `names` and no error yet.
Halide::Expr slice_table(const std::string &names);
// harena_pipeline_slice: slice `index` of `table` handed out (live 1) or
// freed (live 0).
Halide::Expr pipeline_slice(const Halide::Expr &table, uint32_t index, int live, const Halide::Expr &address,
                            const Halide::Expr &slice_bytes, const Halide::Expr &bytes);
// harena_pipeline_slices_end for `table` and the frame at `base`.
Halide::Expr pipeline_slices_end(const Halide::Expr &table, const Halide::Expr &base);
// harena_pipeline_host_enter: opens the call's frame of `bytes` in the
// arena's host companion for the host-only buffers named in `buffers`.
Halide::Expr pipeline_host_enter(const std::string &pipeline, const std::string &buffers, const Halide::Expr &bytes,
                                 uint64_t worst_case_bytes);
// harena_pipeline_host_base: the companion frame's address (UInt(64)).
Halide::Expr pipeline_host_base();
// Registers harena_pipeline_host_exit_as_destructor for the companion frame at `base`.
Halide::Expr register_pipeline_host_exit(const Halide::Expr &base);
// A parallel loop's slot pool kept by the runtime, `pool` the address of its
// words on the pipeline's stack (rewrite/parallel_slots.h):
// harena_slot_pool_init before the loop, harena_slot_take (Int(32), -1 for
// none) and harena_slot_give in each task, harena_pipeline_slots after it.
Halide::Expr slot_pool_init(const Halide::Expr &pool, int slots);
Halide::Expr slot_take(const Halide::Expr &pool);
Halide::Expr slot_give(const Halide::Expr &pool, const Halide::Expr &slot);
Halide::Expr pipeline_slots(const Halide::Expr &pool);
// harena_planned_host_free on `buffer`, and its destructor's name.
Halide::Expr planned_host_free(const Halide::Expr &buffer);
const char *planned_host_free_destructor();
// harena_key_host_malloc on `buffer`: halide_device_and_host_malloc for a
// key-host buffer (route_key_host_buffers.h).
Halide::Expr key_host_malloc(const Halide::Expr &buffer, const Halide::Expr &device_interface);

// The routed equivalent of Halide's allocating call `halide_function`
// (halide_copy_to_device, halide_device_malloc, halide_device_and_host_malloc)
// for an argument buffer, or "" for any other function.
std::string argument_routing(const std::string &halide_function);
// harena_argument_*: `halide_function` routed, on `buffer` and `device_interface`.
Halide::Expr argument_call(const std::string &halide_function, const Halide::Expr &buffer,
                           const Halide::Expr &device_interface);
// Whether `name` is one of the harena_argument_* entry points.
bool is_argument_call(const std::string &name);

}  // namespace runtime_calls
}  // namespace harena
