// harena::SliceResource (harena/rmm.hpp): RMM's resource calls onto
// harena_alloc_on_stream and harena_free_on_stream, with the counts RMM's
// statistics adaptor keeps.
#include <rmm/error.hpp>

#include <cuda_runtime_api.h>

#include <atomic>
#include <string>

#include "harena/rmm.hpp"

namespace harena {

namespace {

void raise_to(std::atomic<std::size_t> &peak, std::size_t value) {
    std::size_t seen = peak.load(std::memory_order_relaxed);
    while (value > seen && !peak.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

}  // namespace

struct SliceResource::State {
    harena_arena *arena = nullptr;
    uint64_t base = 0;
    uint64_t capacity = 0;
    uint64_t alignment = 0;
    std::optional<DeviceResource> fallback;
    std::atomic<std::size_t> bytes_current{0}, bytes_peak{0}, bytes_total{0};
    std::atomic<std::size_t> allocations_current{0}, allocations_peak{0}, allocations_total{0};
    std::atomic<std::size_t> fallback_allocations{0};

    void count_allocation(std::size_t bytes) {
        raise_to(bytes_peak, bytes_current.fetch_add(bytes, std::memory_order_relaxed) + bytes);
        raise_to(allocations_peak, allocations_current.fetch_add(1, std::memory_order_relaxed) + 1);
        bytes_total.fetch_add(bytes, std::memory_order_relaxed);
        allocations_total.fetch_add(1, std::memory_order_relaxed);
    }
    void count_deallocation(std::size_t bytes) {
        bytes_current.fetch_sub(bytes, std::memory_order_relaxed);
        allocations_current.fetch_sub(1, std::memory_order_relaxed);
    }
    [[nodiscard]] bool holds(const void *pointer) const {
        const auto address = reinterpret_cast<uint64_t>(pointer);
        return address >= base && address - base < capacity;
    }
};

SliceResource::SliceResource(harena_arena *arena)
    : state_(std::make_shared<State>()) {
    harena_info info{};
    if (harena_get_info(arena, &info) != HARENA_OK) {
        throw rmm::logic_error(std::string("harena::SliceResource: ") + harena_last_error());
    }
    if (info.device_interface == nullptr) {
        throw rmm::logic_error("harena::SliceResource: the arena holds host memory; give it a device arena "
                               "(harena_create_from_memory with device memory, or harena::ResourceArena)");
    }
    if (info.alignment < rmm::CUDA_ALLOCATION_ALIGNMENT) {
        throw rmm::logic_error("harena::SliceResource: the arena aligns its slices to " + std::to_string(info.alignment) +
                               " bytes; RMM's resources align to 256: create the arena with an alignment of at "
                               "least 256 (the default)");
    }
    state_->arena = arena;
    state_->base = info.base;
    state_->capacity = info.capacity;
    state_->alignment = info.alignment;
}

SliceResource::SliceResource(harena_arena *arena, DeviceResource fallback)
    : SliceResource(arena) {
    state_->fallback.emplace(std::move(fallback));
}

void *SliceResource::allocate(cuda::stream_ref stream, std::size_t bytes, std::size_t alignment) {
    State &s = *state_;
    if (bytes == 0) {
        return nullptr;
    }
    if (alignment > s.alignment || (alignment & (alignment - 1)) != 0) {
        throw rmm::logic_error("harena::SliceResource: an alignment of " + std::to_string(alignment) +
                               " bytes was asked for; the arena's slices are aligned to " +
                               std::to_string(s.alignment));
    }
    uint64_t address = 0;
    const int err = harena_alloc_on_stream(s.arena, bytes, "an RMM allocation", stream.get(), &address);
    if (err == HARENA_OK) {
        s.count_allocation(bytes);
        return reinterpret_cast<void *>(address);
    }
    if (err == HARENA_ERROR_OVERFLOW && s.fallback) {
        void *pointer = s.fallback->allocate(stream, bytes, alignment);
        s.fallback_allocations.fetch_add(1, std::memory_order_relaxed);
        s.count_allocation(bytes);
        return pointer;
    }
    const std::string why = std::string("harena::SliceResource: ") + harena_last_error();
    if (err == HARENA_ERROR_OVERFLOW) {
        throw rmm::out_of_memory(why + " (or give the resource a fallback resource)");
    }
    throw rmm::logic_error(why);
}

void SliceResource::deallocate(cuda::stream_ref stream, void *pointer, std::size_t bytes,
                               std::size_t alignment) noexcept {
    State &s = *state_;
    if (pointer == nullptr || bytes == 0) {
        return;
    }
    if (s.holds(pointer)) {
        // A refused free was reported (harena_last_error); nothing can be thrown here.
        (void)harena_free_on_stream(s.arena, reinterpret_cast<uint64_t>(pointer), bytes, stream.get());
    } else if (s.fallback) {
        s.fallback->deallocate(stream, pointer, bytes, alignment);
    }
    s.count_deallocation(bytes);
}

void *SliceResource::allocate_sync(std::size_t bytes, std::size_t alignment) {
    const cuda::stream_ref stream{cudaStream_t{nullptr}};
    void *pointer = allocate(stream, bytes, alignment);
    RMM_CUDA_TRY(cudaStreamSynchronize(stream.get()));
    return pointer;
}

void SliceResource::deallocate_sync(void *pointer, std::size_t bytes, std::size_t alignment) noexcept {
    const cuda::stream_ref stream{cudaStream_t{nullptr}};
    deallocate(stream, pointer, bytes, alignment);
    (void)cudaStreamSynchronize(stream.get());
}

SliceResourceStatistics SliceResource::statistics() const {
    const State &s = *state_;
    SliceResourceStatistics r;
    r.bytes_current = s.bytes_current.load(std::memory_order_relaxed);
    r.bytes_peak = s.bytes_peak.load(std::memory_order_relaxed);
    r.bytes_total = s.bytes_total.load(std::memory_order_relaxed);
    r.allocations_current = s.allocations_current.load(std::memory_order_relaxed);
    r.allocations_peak = s.allocations_peak.load(std::memory_order_relaxed);
    r.allocations_total = s.allocations_total.load(std::memory_order_relaxed);
    r.fallback_allocations = s.fallback_allocations.load(std::memory_order_relaxed);
    return r;
}

harena_arena *SliceResource::arena() const {
    return state_->arena;
}

}  // namespace harena
