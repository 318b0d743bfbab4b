// halide-arena and RMM (built where RMM's CMake package is found; see
// docs/usage/streams.md).
//
// harena::SliceResource: an RMM memory resource (the cuda::mr resource
// concept RMM 26 uses; device accessible) whose allocations are slices of an
// arena's top frame, stream-ordered as harena_alloc_on_stream and
// harena_free_on_stream are (harena/runtime.h): reuse on one stream records
// nothing, reuse on another waits on one event. Slices are aligned as the
// arena is (256 bytes by default, RMM's alignment). A deallocation of the
// newest slice gives its bytes back at once; any other comes back when the
// frame pops, so push a frame (harena_push_on_stream) around each phase of
// work whose allocations it serves. When the frame is full the allocation
// throws rmm::out_of_memory with the arena's message, unless a fallback
// resource was given: then the fallback serves it (give the arena
// HARENA_OVERFLOW_FALLBACK so that a full arena is not reported as an
// error). Copies share one state, as RMM's pool does; it may be used from
// several threads at once, but frames are pushed and popped while no
// allocation runs.
//
// harena::ResourceArena: an arena whose region is one allocation from any
// RMM resource (a pool, cuda_async_memory_resource, ...), given back to it
// on the stream it came from when the arena is destroyed.
#pragma once

#include <rmm/aligned.hpp>
#include <rmm/resource_ref.hpp>

#include <cuda/memory_resource>
#include <cuda/stream>

#include <cstddef>
#include <memory>
#include <optional>

#include "harena/runtime.h"

namespace harena {

using DeviceResource = cuda::mr::any_resource<cuda::mr::device_accessible>;

// RMM's statistics_resource_adaptor's figures, for the slices and the
// fallback's allocations together, plus what the fallback served.
struct SliceResourceStatistics {
    std::size_t bytes_current = 0;  // bytes allocated and not yet deallocated
    std::size_t bytes_peak = 0;
    std::size_t bytes_total = 0;
    std::size_t allocations_current = 0;
    std::size_t allocations_peak = 0;
    std::size_t allocations_total = 0;
    std::size_t fallback_allocations = 0;  // of allocations_total, served by the fallback resource
};

class SliceResource {
public:
    // The arena must outlive every copy; so must the fallback's memory.
    explicit SliceResource(harena_arena *arena);
    SliceResource(harena_arena *arena, DeviceResource fallback);

    [[nodiscard]] void *allocate(cuda::stream_ref stream, std::size_t bytes,
                                 std::size_t alignment = rmm::CUDA_ALLOCATION_ALIGNMENT);
    void deallocate(cuda::stream_ref stream, void *pointer, std::size_t bytes,
                    std::size_t alignment = rmm::CUDA_ALLOCATION_ALIGNMENT) noexcept;
    // On the legacy default stream, synchronized after.
    [[nodiscard]] void *allocate_sync(std::size_t bytes, std::size_t alignment = rmm::CUDA_ALLOCATION_ALIGNMENT);
    void deallocate_sync(void *pointer, std::size_t bytes,
                         std::size_t alignment = rmm::CUDA_ALLOCATION_ALIGNMENT) noexcept;

    [[nodiscard]] SliceResourceStatistics statistics() const;
    [[nodiscard]] harena_arena *arena() const;

    [[nodiscard]] bool operator==(const SliceResource &other) const noexcept {
        return state_ == other.state_;
    }
    [[nodiscard]] bool operator!=(const SliceResource &other) const noexcept {
        return !(*this == other);
    }
    friend void get_property(const SliceResource &, cuda::mr::device_accessible) noexcept {
    }

private:
    struct State;
    std::shared_ptr<State> state_;
};

static_assert(cuda::mr::resource_with<SliceResource, cuda::mr::device_accessible>,
              "SliceResource is an RMM (cuda::mr) device resource");

class ResourceArena {
public:
    // `bytes` from `upstream` on `stream`, made an arena with `options`
    // (NULL: the defaults; the alignment must be at least 256).
    // device_interface: halide_cuda_device_interface() where Halide's
    // pipelines use the arena too; NULL where only RMM's users and the
    // harena_ calls do. Throws rmm::logic_error for a bad argument and
    // whatever upstream throws.
    ResourceArena(DeviceResource upstream, std::size_t bytes, cuda::stream_ref stream,
                  const harena_options *options = nullptr,
                  const halide_device_interface_t *device_interface = nullptr);
    ~ResourceArena();
    ResourceArena(const ResourceArena &) = delete;
    ResourceArena &operator=(const ResourceArena &) = delete;

    [[nodiscard]] harena_arena *get() const {
        return arena_;
    }

private:
    DeviceResource upstream_;
    void *memory_ = nullptr;
    std::size_t bytes_ = 0;
    cuda::stream_ref stream_;
    harena_arena *arena_ = nullptr;
};

}  // namespace harena
