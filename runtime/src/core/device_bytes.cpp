#include "core/device_bytes.h"

#include "core/halide_device_impl.h"

namespace harena::detail {

namespace {

// `bytes` at `device` (or `host`) as a one-dimensional Halide buffer of bytes.
struct RawView {
    halide_dimension_t dim{};
    halide_buffer_t buffer{};

    RawView(const halide_device_interface_t *iface, uint64_t device, void *host, uint64_t bytes) {
        dim = halide_dimension_t{0, static_cast<int32_t>(bytes), 1, 0};
        buffer.type = halide_type_t(halide_type_uint, 8, 1);
        buffer.dimensions = 1;
        buffer.dim = &dim;
        buffer.device = device;
        buffer.device_interface = iface;
        buffer.host = static_cast<uint8_t *>(host);
    }
};

// Extents are int32, so large copies go in pieces.
constexpr uint64_t kCopyPiece = uint64_t(1) << 30;

template<typename Copy>
int in_pieces(uint64_t bytes, Copy &&copy) {
    for (uint64_t done = 0; done < bytes; done += kCopyPiece) {
        const uint64_t piece = bytes - done < kCopyPiece ? bytes - done : kCopyPiece;
        if (int err = copy(done, piece)) {
            return err;
        }
    }
    return 0;
}

}  // namespace

int copy_device_bytes(void *uc, const halide_device_interface_t *iface, uint64_t from, uint64_t to, uint64_t bytes) {
    return in_pieces(bytes, [&](uint64_t done, uint64_t piece) {
        RawView src(iface, from + done, nullptr, piece), dst(iface, to + done, nullptr, piece);
        return iface->buffer_copy(uc, &src.buffer, iface, &dst.buffer);
    });
}

// Through the backend table: the public entry points take Halide's device
// copy lock, which the caller may hold (core/halide_device_impl.h).
int copy_bytes_to_device(void *uc, const halide_device_interface_t *iface, const void *from, uint64_t to,
                         uint64_t bytes) {
    const HalideDeviceImpl *impl = impl_of(iface);
    impl->use_module();
    const int err = in_pieces(bytes, [&](uint64_t done, uint64_t piece) {
        // A host-only source: the backend reads its host side.
        RawView src(nullptr, 0, const_cast<uint8_t *>(static_cast<const uint8_t *>(from)) + done, piece);
        RawView dst(iface, to + done, nullptr, piece);
        return impl->buffer_copy(uc, &src.buffer, iface, &dst.buffer);
    });
    impl->release_module();
    return err;
}

int copy_bytes_to_host(void *uc, const halide_device_interface_t *iface, uint64_t from, void *to, uint64_t bytes) {
    const HalideDeviceImpl *impl = impl_of(iface);
    impl->use_module();
    RawView last(iface, from, nullptr, 1);
    int err = in_pieces(bytes, [&](uint64_t done, uint64_t piece) {
        RawView src(iface, from + done, nullptr, piece);
        RawView dst(nullptr, 0, static_cast<uint8_t *>(to) + done, piece);
        return impl->buffer_copy(uc, &src.buffer, nullptr, &dst.buffer);
    });
    // The copies may be asynchronous on Halide's stream.
    if (err == 0) {
        err = impl->device_sync(uc, &last.buffer);
    }
    impl->release_module();
    return err;
}

}  // namespace harena::detail
