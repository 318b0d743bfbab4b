// harena::ResourceArena (harena/rmm.hpp): an arena over one allocation from
// an RMM resource.
#include <rmm/error.hpp>

#include <string>

#include "harena/rmm.hpp"

namespace harena {

namespace {

// The arena's device interface where no Halide pipeline uses it: compared by
// address only, never called.
const halide_device_interface_t *rmm_only_interface() {
    static const halide_device_interface_t iface{};
    return &iface;
}

}  // namespace

ResourceArena::ResourceArena(DeviceResource upstream, std::size_t bytes, cuda::stream_ref stream,
                             const harena_options *options, const halide_device_interface_t *device_interface)
    : upstream_(std::move(upstream)), bytes_(bytes), stream_(stream) {
    harena_options resolved;
    harena_options_init(&resolved);
    if (options != nullptr) {
        resolved = *options;
    }
    if (bytes == 0 || resolved.alignment < rmm::CUDA_ALLOCATION_ALIGNMENT) {
        throw rmm::logic_error(bytes == 0 ? "harena::ResourceArena: 0 bytes asked for" : "harena::ResourceArena: the alignment must be at least 256 bytes, RMM's");
    }
    if (device_interface == nullptr && resolved.guard != 0) {
        throw rmm::logic_error("harena::ResourceArena: guard mode checks its bands through the device interface; "
                               "pass halide_cuda_device_interface() to use it");
    }
    memory_ = upstream_.allocate(stream, bytes, rmm::CUDA_ALLOCATION_ALIGNMENT);
    const halide_device_interface_t *iface = device_interface != nullptr ? device_interface : rmm_only_interface();
    if (harena_create_from_memory(iface, reinterpret_cast<uint64_t>(memory_), bytes, &resolved, &arena_) != HARENA_OK) {
        const std::string why = harena_last_error();
        upstream_.deallocate(stream, memory_, bytes, rmm::CUDA_ALLOCATION_ALIGNMENT);
        throw rmm::logic_error("harena::ResourceArena: " + why);
    }
}

ResourceArena::~ResourceArena() {
    // A destroy refused (frames still pushed) was reported; the memory
    // goes back all the same, as the arena's owner is going.
    (void)harena_destroy(arena_);
    upstream_.deallocate(stream_, memory_, bytes_, rmm::CUDA_ALLOCATION_ALIGNMENT);
}

}  // namespace harena
